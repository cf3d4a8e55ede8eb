import SyncLabKernel
import SyncLabProtocol

extension KVSEngine {
    /// What the key-value store keeps on disk: everything it reported as saved, and what it needs
    /// to carry on syncing after a crash. See `KVSEngine` for what is volatile.
    public struct Durable: Hashable, Sendable {
        /// The local store by key, as the app sees it, plus removed keys (tombstones) so a later
        /// write on this device is known to be built on the remove.
        /// A `LocalStore`: a fetched key is found here by its cloud number on every device (see
        /// `LocalStore` for what that saves).
        public internal(set) var values: LocalStore = [:]
        /// App calls accepted locally and not yet decided by the cloud, oldest first. Uploaded
        /// all together; each leaves the queue when the cloud accepts or rejects it.
        public internal(set) var pending: [KVSCall] = []
        /// The cloud's cursor after the last successful fetch; nil: never fetched (the next fetch
        /// asks for the whole store).
        public internal(set) var cursor: UInt64?
        /// The first successful fetch (the initial sync) has happened for `lastAccount`.
        public internal(set) var initialSyncDone = false
        /// The account the device was last signed into: the account the local data belongs to.
        /// Signing into a different one resets the store (`accountChange`).
        public internal(set) var lastAccount: AccountID?
        /// Calls of the upload that was on the wire when another account signed in. They left the
        /// local store with the old account, but the old account's cloud decides them: they are
        /// reported as discarded only if its answer says they were not saved (or never comes).
        /// Durable so that a crash before the answer still reports them.
        public internal(set) var uploadAtSwitch: [KVSCall] = []
        /// The account `uploadAtSwitch` was made in.
        public internal(set) var uploadAtSwitchAccount = AccountID(0)
        /// The next request id: kept here so ids stay unique across crashes (and started after
        /// the transport's last id when a reinstalled app begins without it).
        public internal(set) var nextRequestID: UInt64 = 1
        /// Calls the engine accepted locally since install (for the trace and tests).
        public internal(set) var acceptedCallCount: Int = 0
        /// The cloud's last `retryAfter`: a restarted engine still waits it out before sending.
        public internal(set) var retryAfter = RetryAfterDeadline()

        public init() {}
    }

    /// One key of the local store: a reference to its state (`KVSKeyState`), shared with the
    /// cloud's change it came from and with every other device that applied that change, so an
    /// entry is 8 bytes and applying a change copies a reference.
    public struct LocalValue: Hashable, Sendable {
        let state: KVSKeyState
        /// nil: the key was removed (a tombstone; the app sees it as absent).
        public var value: PlistValue? { state.value }
        /// The write that produced this state; nil only for values rolled back to "never written".
        public var write: WriteID? { state.write }
        /// The change timestamp: this device's clock for its own writes, the cloud's comparison
        /// timestamp for fetched ones.
        public var timestamp: LocalInstant { state.timestamp }

        public init(value: PlistValue?, write: WriteID?, timestamp: LocalInstant) {
            state = KVSKeyState(key: "", value: value, write: write, timestamp: timestamp)
        }

        /// A local write of `key` (its state names the key).
        init(key: String, value: PlistValue?, write: WriteID?, timestamp: LocalInstant) {
            state = KVSKeyState(key: key, value: value, write: write, timestamp: timestamp)
        }

        /// The state a fetched change (or an upload answer) brought.
        init(_ state: KVSKeyState) { self.state = state }

        public static func == (lhs: LocalValue, rhs: LocalValue) -> Bool { lhs.state.sameState(as: rhs.state) }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(value)
            hasher.combine(write)
            hasher.combine(timestamp)
        }
    }

    /// A request on the wire. The engine keeps at most one, so a fetch answer always reflects
    /// every upload the cloud acknowledged before it (no stale fetch overwriting a newer ack).
    struct InFlight: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case upload
            case fetch
        }
        var requestID: UInt64
        var kind: Kind
        /// For an upload, the calls it carries.
        var calls: [WriteID] = []
        /// The account switched while it was on the wire: its answer is about the old account's
        /// store and is dropped.
        var stale: Bool
    }

    /// Timer kinds this engine sets (the raw values are what the trace shows).
    enum TimerKind: UInt8 {
        /// `uploadDelay` (+ jitter) after the first pending change.
        case upload = 1
        /// The backoff after a failed request.
        case retry = 2
    }
}
