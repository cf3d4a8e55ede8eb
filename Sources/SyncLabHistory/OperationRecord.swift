import SyncLabKernel
import SyncLabProtocol

/// One user-level operation the simulator ran on a device.
public struct OperationRecord: Sendable {
    /// The write id the operation made (or would have made, if not accepted).
    public var write: WriteID
    /// The device it ran on.
    public var device: DeviceID
    /// The account the device was signed into (nil: signed out).
    public var account: AccountID?
    /// True time.
    public var at: SimInstant
    /// The device's own clock at `at` (skewed, drifting).
    public var localAt: LocalInstant
    /// The op name (`kvs.set`, `doc.save`, …).
    public var op: String
    /// A short human rendering (`kvs.set "theme"`), for explanations.
    public var summary: String
    /// `.accepted`, `.unchanged` or `.rejected`.
    public var outcome: OperationOutcome

    /// A record of one operation, as the simulator ran it.
    public init(write: WriteID, device: DeviceID, account: AccountID?, at: SimInstant, localAt: LocalInstant, op: String, summary: String, outcome: OperationOutcome) {
        self.write = write; self.device = device; self.account = account; self.at = at; self.localAt = localAt
        self.op = op; self.summary = summary; self.outcome = outcome
    }
}
