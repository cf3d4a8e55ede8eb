import SyncLabKernel
import SyncLabProtocol

/// Everything the simulator saw, in the order it happened: the checker's only input (SPEC §6).
///
/// The checker never looks inside an engine; engines and the cloud report facts as `Observation`s
/// and the simulator records the user operations it ran.
///
/// This module is the recorded run, and nothing else: the simulation (its only producer) appends
/// to it, and the checker and the reports (its consumers) read it. It depends on neither side,
/// so data flows one way: producer → record → consumers.
///
/// Facts are grouped into batches; see `FactRecord` for what a batch means.
public struct History: Sendable {
    /// Device names by index.
    public var deviceNames: [String]
    /// Account names by index.
    public var accountNames: [String]
    /// Every user-level operation that could write, in the order run.
    public var operations: [OperationRecord] = []
    /// Every fact, in the order reported (chunked: recording never copies the facts already kept).
    public var facts = FactLog()
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

    /// An empty history of a world with these devices and accounts (names by index).
    public init(deviceNames: [String], accountNames: [String]) {
        self.deviceNames = deviceNames; self.accountNames = accountNames
    }

    /// `A:3`, `B:m1` (derived): how a write is named in explanations and results.
    public func name(of write: WriteID) -> String { History.name(of: write, deviceNames: deviceNames) }

    /// `main`, or `public` for the public database: how an account is named in explanations and results.
    public func accountName(_ account: AccountID) -> String { History.accountName(account, accountNames: accountNames) }

    /// `name(of:)` without a history, for a writer that cannot borrow one (the trace recorder).
    public static func name(of write: WriteID, deviceNames: [String]) -> String {
        let device = Int(write.device.index) < deviceNames.count && write.device.index >= 0 ? deviceNames[Int(write.device.index)] : "?"
        return write.derived ? "\(device):m\(write.sequence)" : "\(device):\(write.sequence)"
    }

    /// `accountName(_:)` without a history.
    public static func accountName(_ account: AccountID, accountNames: [String]) -> String {
        account == .publicDatabase ? "public" : accountNames[Int(account.index)]
    }
}
