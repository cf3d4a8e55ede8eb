import SyncLabKernel

/// The cloud's current state of one key, as a fetch (or an upload answer) reports it.
///
/// Removed keys are reported too (as tombstones, `value == nil`), so removes propagate to devices
/// that still show the old value.
///
/// The state is shared, not copied (see `KVSKeyState`), and the change names the key's number
/// in its account's cloud store beside its name, so a device that has seen the key before finds
/// it by number (one array element) rather than by hashing its name.
public struct KVSChange: Hashable, Sendable {
    /// The key's state in the cloud.
    public let state: KVSKeyState
    /// The key's number in its account's cloud store (numbers start at 0 in the order keys were
    /// first written and never change); nil for a change built without one. A lookup hint: two
    /// changes are equal when their states are, whatever their numbers.
    public let number: UInt32?

    public var key: String { state.key }
    /// The value now in the cloud; nil means the key was removed.
    public var value: PlistValue? { state.value }
    /// The write that produced this state.
    public var write: WriteID { state.write.unsafelyUnwrapped }
    /// The change timestamp last-writer-wins compared: the writing device's clock under
    /// `timestampSource: device`, the cloud's clock at arrival under `server`.
    public var timestamp: LocalInstant { state.timestamp }

    public init(key: String, value: PlistValue?, write: WriteID, timestamp: LocalInstant) {
        state = KVSKeyState(key: key, value: value, write: write, timestamp: timestamp)
        number = nil
    }

    /// A change of key number `number` of its account's store, to `state` (whose write is set).
    public init(number: UInt32, state: KVSKeyState) {
        precondition(state.write != nil, "kvs: a cloud change of \"\(state.key)\" without a write")
        self.state = state
        self.number = number
    }

    public static func == (lhs: KVSChange, rhs: KVSChange) -> Bool {
        lhs.state === rhs.state || (lhs.key == rhs.key && lhs.state.sameState(as: rhs.state))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
        hasher.combine(write)
        hasher.combine(timestamp)
    }
}
