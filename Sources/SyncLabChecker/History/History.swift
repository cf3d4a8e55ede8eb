import SyncLabKernel
import SyncLabProtocol

/// Everything the simulator saw, in the order it happened: the checker's only input (SPEC §6).
///
/// The checker never looks inside an engine; engines and the cloud report facts as `Observation`s
/// and the simulator records the user operations it ran.
public struct History: Sendable {
    /// Device names by index.
    public var deviceNames: [String]
    /// Account names by index.
    public var accountNames: [String]
    /// Every user-level operation that could write, in the order run.
    public var operations: [OperationRecord] = []
    /// Every fact, in the order reported.
    public var facts: [FactRecord] = []
    /// The cloud's final view per account (index = account index).
    public var finalCloud: [[ViewEntry]] = []
    /// The cloud's final view of the public database.
    public var finalPublic: [ViewEntry] = []
    /// Writes that survive apart from final values (unresolved document conflict versions), per account.
    public var survivingWrites: [[WriteID]] = []
    /// Each device's final local view (nil: app not installed, or device signed out).
    public var finalDeviceViews: [[ViewEntry]?] = []
    /// The account each device is signed into at the end (nil: signed out).
    public var finalDeviceAccounts: [AccountID?] = []
    /// When the run stopped (the final state is judged then).
    public var end: SimInstant = .start

    public init(deviceNames: [String], accountNames: [String]) {
        self.deviceNames = deviceNames; self.accountNames = accountNames
    }

    /// `A:3`, `B:m1` (derived): how a write is named in explanations and results.
    public func name(of write: WriteID) -> String { History.name(of: write, deviceNames: deviceNames) }

    public func accountName(_ account: AccountID) -> String { History.accountName(account, accountNames: accountNames) }

    public static func name(of write: WriteID, deviceNames: [String]) -> String {
        let device = Int(write.device.index) < deviceNames.count && write.device.index >= 0 ? deviceNames[Int(write.device.index)] : "?"
        return write.derived ? "\(device):m\(write.sequence)" : "\(device):\(write.sequence)"
    }

    public static func accountName(_ account: AccountID, accountNames: [String]) -> String {
        account == .publicDatabase ? "public" : accountNames[Int(account.index)]
    }
}

/// One user-level operation the simulator ran on a device.
public struct OperationRecord: Sendable {
    public var write: WriteID
    public var device: DeviceID
    /// The account the device was signed into (nil: signed out).
    public var account: AccountID?
    public var at: SimInstant
    public var localAt: LocalInstant
    /// The op name (`kvs.set`, `doc.save`, …).
    public var op: String
    /// A short human rendering (`kvs.set "theme"`), for explanations.
    public var summary: String
    /// `.accepted`, `.unchanged` or `.rejected`.
    public var outcome: OperationOutcome

    public init(write: WriteID, device: DeviceID, account: AccountID?, at: SimInstant, localAt: LocalInstant, op: String, summary: String, outcome: OperationOutcome) {
        self.write = write; self.device = device; self.account = account; self.at = at; self.localAt = localAt
        self.op = op; self.summary = summary; self.outcome = outcome
    }
}

public enum OperationOutcome: Hashable, Sendable {
    case accepted
    case unchanged
    case rejected(error: String)
}

/// One observation, stamped by the simulator.
public struct FactRecord: Sendable {
    /// The engine step (or cloud request) it came from: facts of one step happened at once.
    public var batch: Int
    public var at: SimInstant
    /// The device whose engine reported it; nil for the cloud.
    public var device: DeviceID?
    public var kind: FactKind

    public init(batch: Int, at: SimInstant, device: DeviceID?, kind: FactKind) {
        self.batch = batch; self.at = at; self.device = device; self.kind = kind
    }
}

/// A fact: an engine or cloud observation, a notification, or a device's account change.
public enum FactKind: Sendable {
    case observation(Observation)
    case notification(AppNotification)
    /// The device is now signed into this account (nil: signed out).
    case accountChanged(AccountID?)
}
