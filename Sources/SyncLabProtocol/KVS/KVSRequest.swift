/// A request of the key-value store service.
public enum KVSRequest: Sendable {
    /// Every pending app call of the device, oldest first. The cloud decides each call on its own,
    /// atomically, in this order. Re-sending a call the cloud already decided is harmless: it
    /// answers with the decision it made the first time.
    case upload(calls: [KVSCall])
    /// The changes since `since` (a cursor from an earlier `changes` answer), or the whole store,
    /// tombstones included, when `since` is nil (first fetch, or after an account switch).
    case fetch(since: UInt64?)

    /// Bytes on the wire that count toward transfer time. KVS payloads are small: 0.
    public var transferBytes: Int64 { 0 }
}
