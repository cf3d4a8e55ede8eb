import SyncLabKernel

/// The cloud's current state of one key, as a fetch (or an upload answer) reports it.
///
/// Removed keys are reported too (as tombstones, `value == nil`), so removes propagate to devices
/// that still show the old value.
public struct KVSChange: Hashable, Sendable {
    public var key: String
    /// The value now in the cloud; nil means the key was removed.
    public var value: PlistValue?
    /// The write that produced this state.
    public var write: WriteID
    /// The change timestamp last-writer-wins compared: the writing device's clock under
    /// `timestampSource: device`, the cloud's clock at arrival under `server`.
    public var timestamp: LocalInstant

    public init(key: String, value: PlistValue?, write: WriteID, timestamp: LocalInstant) {
        self.key = key; self.value = value; self.write = write; self.timestamp = timestamp
    }
}
