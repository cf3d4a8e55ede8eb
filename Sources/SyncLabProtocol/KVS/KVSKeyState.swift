import SyncLabKernel

/// One state of one key (its value or removal, the write that made it, its change timestamp),
/// immutable and shared: the cloud makes one per accepted change, and every device that applies
/// the change keeps a reference to it instead of a copy.
///
/// Why a shared object: a write to a key reaches every device of the account (1,000 in the KVS
/// bench), and each applies it to its own store. A store entry inline (value, write, timestamp:
/// 48 bytes, 64 with its name and hash) made every device's store 8 KB, 8 MB at 1,000 devices:
/// each application a cache miss. With the state shared, a device's entry is one reference
/// (8 bytes: see `KVSEngine.LocalStore`), and applying a change copies that reference.
/// Each device still owns its store (which key shows which state); only the immutable state is
/// shared, as the characters of a `String` are.
public final class KVSKeyState: Sendable {
    /// The key this state belongs to ("" for a state built without one, by hand in tests).
    public let key: String
    /// nil: the key is removed (a tombstone).
    public let value: PlistValue?
    /// The write that produced this state; nil only for a device's value rolled back to "never written".
    public let write: WriteID?
    /// The change timestamp last-writer-wins compares.
    public let timestamp: LocalInstant

    public init(key: String, value: PlistValue?, write: WriteID?, timestamp: LocalInstant) {
        self.key = key; self.value = value; self.write = write; self.timestamp = timestamp
    }

    /// The same value, write and timestamp (the key is not compared: a device's own states may
    /// be built without it).
    @inlinable public func sameState(as other: KVSKeyState) -> Bool {
        self === other || (write == other.write && timestamp == other.timestamp && value == other.value)
    }
}
