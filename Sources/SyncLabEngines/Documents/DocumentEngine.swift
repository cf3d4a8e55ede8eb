import SyncLabKernel
import SyncLabProtocol

/// The client side of iCloud Documents (SPEC §4.2): a local ubiquity container, an upload queue
/// like the iCloud daemon's, and the conflicts it shows the app (UIDocument `.inConflict`, NSFileVersion),
/// which answers through `DocumentsAppHosting` (a built-in app inside the step, a team's after it).
///
/// Storage: `durable` holds every local document (what the app shows, the pending local versions,
/// the base version, the last cloud state, resolutions still to send, rejections already
/// reported), the fetch cursor, an upload on the wire at an account switch, the cloud's
/// outstanding `retryAfter`, and the request counter (engine-made write ids come from the host). Volatile: the network
/// state, the request in flight (and whether it is stale), backoff and whether a fetch is due; a
/// restart fetches again.
///
/// One request is in flight at a time: a fetch first, then uploads by path, then resolutions.
/// Timers: kind 1 retries after a transport failure (backoff), kind 2 retries uploads blocked on
/// the storage quota (blocked work does not keep the engine busy).
public struct DocumentEngine: ClientEngine {
    public struct Durable: Sendable {
        /// The account signed in now (nil: signed out).
        var account: AccountID?
        /// The account whose documents the local container holds.
        var dataAccount: AccountID?
        /// Local documents by path (lookups only; listings sort by path), with the versions a
        /// fetch names as held.
        var documents = DocumentTable()
        /// The cloud's change sequence up to which this device has fetched.
        var cursor: UInt64 = 0
        /// The versions of the upload that was on the wire when another account signed in. They
        /// left the container with the old account, but the old account's cloud decides them:
        /// they are reported only if its answer says they were not saved (or never comes).
        /// Durable so that a crash before the answer still reports them.
        var uploadAtSwitch: [WriteID] = []
        /// The old account's item `uploadAtSwitch` was an upload of.
        var uploadAtSwitchItem: ItemKey?
        var lastRequestID: UInt64 = 0
        /// The cloud's last `retryAfter`: a restarted engine still waits it out before sending.
        var retryAfter = RetryAfterDeadline()
    }

    /// What is on the wire now.
    enum InFlight: Sendable {
        case fetch(requestID: UInt64, account: AccountID)
        case upload(requestID: UInt64, account: AccountID, path: String, sent: [WriteID])
        case resolve(requestID: UInt64, account: AccountID, path: String)

        var requestID: UInt64 {
            switch self {
            case .fetch(let id, _), .upload(let id, _, _, _), .resolve(let id, _, _): return id
            }
        }
        var account: AccountID {
            switch self {
            case .fetch(_, let account), .upload(_, let account, _, _), .resolve(_, let account, _): return account
            }
        }
    }

    /// Timer kinds this engine sets (the raw values are what the trace shows).
    enum TimerKind: UInt8 {
        /// The backoff (or the cloud's `retryAfter`) after a failed request.
        case retry = 1
        /// The wait before trying uploads the storage quota refused again.
        case quotaRetry = 2
    }
    static let retryTimer = EngineTimer(TimerKind.retry)
    static let quotaRetryTimer = EngineTimer(TimerKind.quotaRetry)

    let identity: EngineIdentity
    var state: Durable
    var online = true
    var inFlight: InFlight?
    /// Another account signed in while `inFlight` was on the wire: its answer is about the old
    /// account's container and only settles `uploadAtSwitch`.
    var inFlightIsStale = false
    var needsFetch = false
    /// A transport failure's backoff timer is pending.
    var waitingForRetry = false
    var backoff = RetryBackoff()
    var quotaBackoff = RetryBackoff()
    /// The built-in app (SyncLabApps' `BuiltInApps`, chosen by the conflict policy) when the
    /// device hosts no team app: asked inside the engine's step, where the policies it stands
    /// for always ran. Made at each launch, like any app; nil asks no one (versions are kept).
    public var builtInApp: (any DocumentsAppHosting & Sendable)?

    public var durable: Durable { state }

    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?, requestIDsAfter: UInt64) {
        self.init(identity: identity, account: account, lastAccount: account, recovering: durable, requestIDsAfter: requestIDsAfter)
    }

    /// - Parameter lastAccount: the account the device last signed into, which a fresh
    ///   container's documents belong to (as `KVSEngine`'s): an app installed while the device is
    ///   signed out saves for that account, not for whichever account signs in next.
    public init(identity: EngineIdentity, account: AccountID?, lastAccount: AccountID?, recovering durable: Durable?, requestIDsAfter: UInt64) {
        self.identity = identity
        if var recovered = durable {
            recovered.account = account
            for path in recovered.documents.keys.sorted() { recovered.documents[path]?.quotaBlocked = false }
            state = recovered
        } else {
            state = Durable(account: account, dataAccount: account ?? lastAccount)
        }
        state.lastRequestID = max(state.lastRequestID, requestIDsAfter)
    }

    /// The account local items belong to.
    var itemAccount: AccountID { state.dataAccount ?? state.account ?? AccountID(0) }

    func item(_ path: String) -> ItemKey { ItemKey(account: itemAccount, store: .documents, name: path) }

    /// Local paths sorted by UTF-8 bytes (ItemKey order).
    var sortedPaths: [String] { state.documents.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    // MARK: Inputs

    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {
        switch event {
        case .launched:
            // A crash lost the answer of the upload on the wire at an account switch.
            settleUploadAtSwitch(nil, &context)
            needsFetch = true
            // A restart after a throttle still owes the cloud the rest of its `retryAfter`.
            honourRetryAfter(&context)
        case .foreground:
            // The app asks now: the fetch does not wait out the backoff (but still a `retryAfter`).
            state.retryAfter.stopWaitingOutBackoff(armed: &waitingForRetry, timer: Self.retryTimer, &context)
            needsFetch = true
        case .connectivity(let isOnline):
            online = isOnline
            if isOnline {
                backoff.reset()
                if waitingForRetry { context.emit(.cancelTimer(Self.retryTimer)) }
                waitingForRetry = false
                // Backoff starts afresh, but a `retryAfter` the cloud gave still holds.
                honourRetryAfter(&context)
                needsFetch = true
                clearQuotaBlocks()
            }
        case .response(let envelope):
            handleResponse(envelope, &context)
        case .push:
            needsFetch = true
            clearQuotaBlocks()
        case .timer(let timer):
            switch timer.kind(as: TimerKind.self) {
            case .retry:
                waitingForRetry = false
                state.retryAfter.clear()
            case .quotaRetry:
                clearQuotaBlocks()
            case nil:
                break // a timer of a kind this engine never sets: nothing to do
            }
        case .signedIn(let account):
            signIn(account, &context)
        case .signedOut:
            // Like the KVS store, the container keeps working locally; nothing is sent until a
            // sign-in, and a sign-in to another account discards what is pending.
            state.account = nil
        }
        pump(&context)
    }

    mutating func signIn(_ account: AccountID, _ context: inout EngineContext) {
        if let previous = state.dataAccount, previous != account {
            // An upload on the wire may be saved by the old account's cloud: its answer decides it.
            var onTheWire: [WriteID] = []
            if case .upload(_, let flightAccount, let path, let sent)? = inFlight, !inFlightIsStale, flightAccount == previous {
                onTheWire = sent
                state.uploadAtSwitch = sent
                state.uploadAtSwitchItem = item(path)
            }
            for (write, item) in pendingWrites() where !onTheWire.contains(write) {
                context.observe(.discarded(write: write, item: item, reason: "discarded at account switch"))
            }
            if inFlight != nil { inFlightIsStale = true }
            for path in sortedPaths where state.documents[path]?.visibleValue != .absent {
                context.observe(.visible(item: item(path), value: .absent, write: nil, cause: .reset))
            }
            state.documents.removeAll()
            state.cursor = 0
            context.log("accountChanged", [("account", "\(account.index)")])
        }
        state.account = account
        state.dataAccount = account
        needsFetch = true
    }

    mutating func clearQuotaBlocks() {
        // Runs after every fetch; a document is rarely blocked, and every flag ends false
        // whatever the order, so look before listing (and no sort).
        guard state.documents.values.contains(where: \.quotaBlocked) else { return }
        for path in Array(state.documents.keys) { state.documents[path]?.quotaBlocked = false }
    }

    // MARK: App calls

    /// `doc.save`: writes the whole content locally at once and queues the upload.
    public mutating func save(path: String, content: DocumentContent, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        writeLocally(path: path, body: .content(content.saved(by: write)), write: write, &context)
        return .accepted
    }

    /// `doc.append`: adds text to the device's current local content (absent: empty).
    public mutating func append(path: String, text: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        let existing = state.documents[path]?.shown?.body.content ?? .text("")
        guard let appended = existing.appending(text, write: write) else {
            // Past the largest file size: refused and told, nothing changes (as a KVS
            // increment past the 64-bit range).
            context.observe(.rejected(write: write, item: item(path), error: "invalidArgument", limit: nil))
            return .rejected(error: "invalidArgument")
        }
        writeLocally(path: path, body: .content(appended), write: write, &context)
        return .accepted
    }

    /// `doc.delete`: a tombstone version; deleting a document the device does not show is a no-op.
    public mutating func delete(path: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        guard let document = state.documents[path], document.visibleValue != .absent else { return .unchanged }
        // Deleting a document shown in conflict deletes its conflict versions too (NSFileVersion's
        // versions go with the file): the tombstone names the ones this device knows as parents,
        // so the cloud sees it built on them, not concurrent with them (no edit-wins restore).
        let known = document.pending.isEmpty && document.shown?.id == document.cloud?.current.id ? document.cloud?.conflicts.map(\.version.id) ?? [] : []
        writeLocally(path: path, body: .deleted, write: write, alsoBuiltOn: known, &context)
        // The checker follows what a user's write was built on from what its device showed; the
        // conflict versions it also removes on purpose are named here, so they are not lost.
        if !known.isEmpty {
            context.observe(.derivedWrite(write: write, item: item(path), value: .absent, parents: known,
                                          why: "doc.delete \"\(path)\" with its conflict versions"))
        }
        return .accepted
    }

    /// Makes a local version on top of what the app shows, shows it, and queues it.
    mutating func writeLocally(path: String, body: DocumentBody, write: WriteID, alsoBuiltOn: [WriteID] = [], _ context: inout EngineContext) {
        var document = state.documents[path] ?? LocalDocument(path: path)
        let version = DocumentVersion(id: write, parents: (document.shown.map { [$0.id] } ?? []) + alsoBuiltOn, modifiedAt: context.now,
                                      author: identity.device, authorName: identity.deviceName, body: body)
        if document.pending.isEmpty { document.base = document.cloud?.current.id }
        document.pending.append(version)
        // The next upload carries this version, which the cloud has not judged: a refusal for
        // space covered the versions it was sent, not this one (a delete frees space).
        document.quotaBlocked = false
        document.shown = version
        state.documents[path] = document
        context.observe(.visible(item: item(path), value: document.visibleValue, write: write, cause: .local))
        pump(&context)
    }

    // MARK: Views

    public var isQuiescent: Bool {
        if inFlight != nil { return false }
        guard online, state.account != nil else { return true }
        if waitingForRetry || needsFetch { return false }
        return nextWork() == nil
    }

    public func localView() -> [ViewEntry] {
        var view: [ViewEntry] = []
        for path in sortedPaths {
            guard let document = state.documents[path], let shown = document.shown, let content = shown.body.content else { continue }
            view.append(ViewEntry(item: item(path), value: .document(content), write: shown.id))
        }
        return view
    }

    public func pendingWrites() -> [(WriteID, ItemKey)] {
        var writes: [(WriteID, ItemKey)] = []
        for path in sortedPaths {
            for version in state.documents[path]?.pending ?? [] { writes.append((version.id, item(path))) }
        }
        return writes
    }

    /// The versions of the upload that was on the wire at an account switch, whose answer has not
    /// come, in the old account: the app's deletion wipes them with the rest of its data, so the
    /// host reports them discarded (the cloud may still have saved them).
    public func writesAwaitingSwitchAnswer() -> [(WriteID, ItemKey)] {
        guard let item = state.uploadAtSwitchItem else { return [] }
        return state.uploadAtSwitch.map { ($0, item) }
    }

    /// The app-visible conflict state of a document: the cloud's state as last heard.
    public func cloudState(path: String) -> DocumentState? { state.documents[path]?.cloud }
}
