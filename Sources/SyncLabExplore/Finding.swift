import SyncLabChecker
import SyncLabHistory

/// One finding of one run: its fingerprint and the anomaly behind it (nil for a failed run that
/// has no anomaly, e.g. the event cap).
public struct Finding: Sendable {
    /// `KIND.STORE.POLICY.SHAPE…`: see `Fingerprint`.
    public var fingerprint: String
    public var kind: String
    /// `kvs`, `documents`, `records`, or `all` for a failed run.
    public var store: String
    public var anomaly: Anomaly?
}
