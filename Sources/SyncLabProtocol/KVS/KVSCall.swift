import SyncLabKernel

/// One app call (`kvs.set`, `kvs.setMany`, `kvs.remove`, `kvs.increment`) as the device queued it.
///
/// The call is the unit of atomicity: the cloud accepts or rejects all of its entries together,
/// each call on its own, in arrival order (SPEC §4.1). Last-writer-wins still runs per key, so an
/// accepted call may lose some keys to newer writes.
public struct KVSCall: Hashable, Sendable {
    /// The write the simulator gave the call; carried, never interpreted. A re-sent call keeps it,
    /// which is how the cloud recognises a retry (idempotency).
    public var write: WriteID
    /// The keys the call sets or removes, in call order, each key at most once.
    public var entries: [KVSEntry]
    /// The writing device's local clock when the app made the call: the change timestamp that
    /// decides last-writer-wins under `timestampSource: device`.
    public var timestamp: LocalInstant

    public init(write: WriteID, entries: [KVSEntry], timestamp: LocalInstant) {
        self.write = write; self.entries = entries; self.timestamp = timestamp
    }
}
