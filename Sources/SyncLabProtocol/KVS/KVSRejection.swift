/// A call the cloud refused as a whole because applying it would break a store limit that only
/// the cloud can see (two devices each within limits, together past them).
public struct KVSRejection: Hashable, Sendable {
    /// The refused call.
    public var write: WriteID
    /// The limit it would have broken: `kvs.keys`, `kvs.totalBytes` or `kvs.valueBytes`.
    public var limit: String
    /// The cloud's current state of the call's keys, so the device can roll them back. A key of
    /// the call that is missing here has never been written in the cloud (roll back to absent).
    public var current: [KVSChange]

    public init(write: WriteID, limit: String, current: [KVSChange]) {
        self.write = write; self.limit = limit; self.current = current
    }
}
