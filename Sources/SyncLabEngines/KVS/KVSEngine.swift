import SyncLabKernel
import SyncLabProtocol

/// The device side of NSUbiquitousKeyValueStore (SPEC §4.1), sans-IO.
///
/// **Durable** (`Durable`: survives `device.crash`, dropped by `app.delete`): the local values with
/// their write ids and change timestamps (tombstones included), the queue of app calls not yet
/// decided by the cloud, the fetch cursor, whether the initial sync happened, the account last
/// signed into, the cloud's outstanding `retryAfter`, and the request-id counter. A call is durable before `set` returns, so a crash
/// never loses a write the app was told succeeded.
///
/// **Volatile** (lost on crash, rebuilt at `.launched`): whether the device is online and signed
/// in, the one request in flight, the upload and retry timers, the retry backoff, and the flags
/// saying a fetch or an upload is wanted. After a crash, `.launched` fetches and uploads the
/// recovered queue at once.
///
/// Flow: a write applies locally at once, joins the queue and starts the upload timer if none is
/// running (`uploadDelay` + 0–10 % jitter after the first pending change; later calls join it).
/// The engine sends one request at a time: an upload of every pending call, or a fetch of the
/// changes since its cursor. Fetches happen at launch, foreground, `synchronize`, push and
/// reconnect. Failures retry with `RetryBackoff`.
public struct KVSEngine: ClientEngine {
    // Stored properties lie in the order declared: what every input reads and writes comes
    // first, on the engine's first cache lines, and the identity (its settings, hundreds of
    // bytes, read for writes and retries) last; declared first, it put those fields lines
    // further on (docs/PERFORMANCE.md, kvs17).
    /// Durable state (see above).
    var stored: Durable
    /// The account signed into now; nil while signed out (the store keeps working locally).
    var account: AccountID?
    var online = true
    var inFlight: InFlight?
    var uploadTimerArmed = false
    /// An upload should go out as soon as nothing else is on the wire (timer fired, reconnect,
    /// launch, sign-in, or a failed upload waiting for its retry).
    var uploadDue = false
    /// A fetch should go out as soon as nothing else is on the wire.
    var fetchWanted = false
    /// A fetch was asked for while one was on the wire (a push): fetch once more after it.
    var fetchAgain = false
    var retryArmed = false
    var backoff = RetryBackoff()
    let identity: EngineIdentity

    public var durable: Durable { stored }

    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?, requestIDsAfter: UInt64) {
        self.init(identity: identity, account: account, lastAccount: account, recovering: durable, requestIDsAfter: requestIDsAfter)
    }

    /// - Parameter lastAccount: the account the device last signed into, which a fresh store's
    ///   data belongs to. It differs from `account` when the app is installed while the device is
    ///   signed out: what the app then writes belongs to that account (it uploads at the next
    ///   sign-in to it, and is discarded at a sign-in to another, SPEC §4.1), not to whichever
    ///   account signs in next.
    public init(identity: EngineIdentity, account: AccountID?, lastAccount: AccountID?, recovering durable: Durable?, requestIDsAfter: UInt64) {
        self.identity = identity
        self.stored = durable ?? Durable()
        stored.nextRequestID = max(stored.nextRequestID, requestIDsAfter + 1)
        self.account = account
        if stored.lastAccount == nil { stored.lastAccount = account ?? lastAccount }
    }

    /// The account the local data belongs to (the last one signed into). A device that was
    /// never signed in labels its items with the first account.
    var storeAccount: AccountID { stored.lastAccount ?? AccountID(0) }

    /// Requests may go out: online, and signed into the account the local data belongs to.
    var canSend: Bool { online && account != nil && account == stored.lastAccount }

    func item(_ key: String) -> ItemKey { ItemKey(account: storeAccount, store: .kvs, name: key) }

    // MARK: - Events

    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {
        switch event {
        case .launched:
            // A crash lost the answer of the upload on the wire at an account switch.
            settleUploadAtSwitch(nil, &context)
            if let account, account != storeAccount, stored.lastAccount != nil {
                switchAccount(to: account, &context)
            }
            fetchWanted = true
            if !stored.pending.isEmpty { uploadDue = true }
            // A restart after a throttle still owes the cloud the rest of its `retryAfter`.
            honourRetryAfter(&context)
            context.log("kvsLaunched", [("pending", String(stored.pending.count)),
                                                              ("initialSyncDone", String(stored.initialSyncDone))])
        case .foreground:
            syncNow(&context)
        case .connectivity(let nowOnline):
            let wasOnline = online
            online = nowOnline
            if nowOnline && !wasOnline {
                // Back online: backoff starts afresh, then fetch and upload what waited.
                backoff.reset()
                if retryArmed {
                    retryArmed = false
                    context.emit(.cancelTimer(EngineTimer(TimerKind.retry)))
                }
                // Backoff starts afresh, but a `retryAfter` the cloud gave still holds.
                honourRetryAfter(&context)
                requestFetch()
                if !stored.pending.isEmpty { uploadDue = true }
            }
        case .response(let envelope):
            receive(envelope, &context)
        case .push(let push):
            if push.store == .kvs && push.account == account { requestFetch() }
        case .timer(let timer):
            switch timer.kind(as: TimerKind.self) {
            case .upload:
                uploadTimerArmed = false
                uploadDue = true
            case .retry:
                retryArmed = false
                stored.retryAfter.clear()
            case nil:
                break // a timer of a kind this engine never sets: nothing to do
            }
        case .signedIn(let newAccount):
            account = newAccount
            if newAccount != storeAccount && stored.lastAccount != nil {
                switchAccount(to: newAccount, &context)
            }
            stored.lastAccount = newAccount
            requestFetch()
            if !stored.pending.isEmpty { uploadDue = true }
        case .signedOut:
            // The store keeps working locally; pending calls wait for the next sign-in.
            account = nil
            context.log("kvsSignedOut", [("pending", String(stored.pending.count))])
        }
        proceed(&context)
    }

    public var isQuiescent: Bool {
        if inFlight != nil { return false }
        guard canSend else { return true }
        return stored.pending.isEmpty && !fetchWanted
    }

    /// `isQuiescent` for a host holding the engine in place (the simulator, after every
    /// delivery), as `RecordEngine.isQuiescentInPlace()`: the host's call of the getter, inlined
    /// into a mutating access of its optional engine, copied the whole engine out first (every
    /// field retained, every line of it read: half the KVS bench's memory copying).
    public mutating func isQuiescentInPlace() -> Bool {
        if inFlight != nil { return false }
        guard online, let account, account == stored.lastAccount else { return true }
        return stored.pending.isEmpty && !fetchWanted
    }

    /// Every key with a value, sorted by item (UTF-8 order of the key: one account and store).
    ///
    /// Sorts names with their values (a name and a reference each), not view entries: the end
    /// of every run takes every device's view, and after 2,000 devices wrote a key each, sorting
    /// 2,000 entries of a hundred bytes per device (moving and retaining each) was 12% of the run.
    public func localView() -> [ViewEntry] {
        var shown: [(key: String, local: LocalValue)] = []
        shown.reserveCapacity(stored.values.count)
        for (key, local) in stored.values where local.value != nil { shown.append((key, local)) }
        shown.sort { UTF8Order.precedes($0.key, $1.key) }
        return shown.map { ViewEntry(item: item($0.key), value: .kvs($0.local.value!), write: $0.local.write) }
    }

    public func pendingWrites() -> [(WriteID, ItemKey)] {
        stored.pending.flatMap { call in call.entries.map { (call.write, item($0.key)) } }
    }

    /// The calls of the upload that was on the wire at an account switch, whose answer has not
    /// come, each key in the old account: the app's deletion wipes them with the rest of its
    /// data, so the host reports them discarded (the cloud may still have saved them).
    public func writesAwaitingSwitchAnswer() -> [(WriteID, ItemKey)] {
        stored.uploadAtSwitch.flatMap { call in
            call.entries.map { (call.write, ItemKey(account: stored.uploadAtSwitchAccount, store: .kvs, name: $0.key)) }
        }
    }

    // MARK: - App calls

    /// `kvs.set` / `kvs.setMany` / `kvs.remove`: one atomic call; a nil value removes the key.
    ///
    /// Applies locally at once (durable before returning) or fails whole: `invalidArgument` for a
    /// key longer than `keyBytes`, `quotaViolation` (with a `quotaViolationChange` notification)
    /// when the local store would break a limit; the previous values are kept either way.
    /// - Parameter cause: `.local` for the user's writes; `.resolution` for a hosted app's own
    ///   writes, which are built on the parents the platform names, not on whatever the key showed.
    public mutating func set(_ entries: [(key: String, value: PlistValue?)], write: WriteID, cause: VisibilityCause = .local,
                             _ context: inout EngineContext) -> AppCallResult {
        let call = KVSEngine.lastPerKey(entries.map { KVSEntry(key: $0.key, value: $0.value) })
        guard !call.isEmpty else { return .unchanged }
        let limits = identity.limits.kvs
        if call.contains(where: { $0.key.utf8.count > limits.keyBytes }) {
            // A programming error on a real device (an exception): reported, not a quota violation.
            for entry in call { context.observe(.rejected(write: write, item: item(entry.key), error: "invalidArgument", limit: nil)) }
            return .rejected(error: "invalidArgument")
        }
        let before = usage()
        var after = before
        for entry in call { after = after.replacing(stored.values[entry.key]?.value, with: entry.value) }
        if let limit = before.violation(to: after, newValues: call.compactMap(\.value), limits: limits) {
            for entry in call { context.observe(.rejected(write: write, item: item(entry.key), error: "quotaViolation", limit: limit)) }
            context.emit(.notify(AppNotification(store: .kvs, reason: "quotaViolationChange", items: KVSEngine.sortedKeys(call.map(\.key)))))
            return .rejected(error: "quotaViolation")
        }
        for entry in call {
            stored.values[entry.key] = LocalValue(key: entry.key, value: entry.value, write: write, timestamp: context.now)
            context.observe(.visible(item: item(entry.key), value: entry.value.map(ItemValue.kvs) ?? .absent, write: write, cause: cause))
        }
        stored.pending.append(KVSCall(write: write, entries: call, timestamp: context.now))
        stored.acceptedCallCount += 1
        proceed(&context)
        return .accepted
    }

    /// `kvs.increment`: reads the local integer (absent, or not a number, = 0; a double truncated, and
    /// clamped to the 64-bit range) and sets it plus `by`.
    ///
    /// A sum outside the 64-bit range never wraps: the call is refused with `invalidArgument`
    /// (as a Swift app's checked `+` would stop it), the value is kept and the app is told, so
    /// the checker sees a rejection rather than a lost update.
    public mutating func increment(key: String, by: Int64, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        let current: Int64
        switch stored.values[key]?.value {
        case .integer(let number)?: current = number
        case .double(let number)?: current = KVSEngine.integerReading(number)
        case .bool(let flag)?: current = flag ? 1 : 0
        case .string?, .data?, .date?, .array?, .dictionary?, nil: current = 0
        }
        let (sum, overflow) = current.addingReportingOverflow(by)
        guard !overflow else {
            context.observe(.rejected(write: write, item: item(key), error: "invalidArgument", limit: nil))
            return .rejected(error: "invalidArgument")
        }
        return set([(key: key, value: .integer(sum))], write: write, &context)
    }

    /// A double read as the app's integer, as `longLong(forKey:)` reads it: truncated toward zero,
    /// and past the 64-bit range the nearest end of it. Read as 0 (the conversion's failure), `1e20`
    /// plus one wrote 1 over the user's number without a word; read as `Int64.max`, that increment
    /// is past the 64-bit range and refused like any other, and the value is kept.
    static func integerReading(_ number: Double) -> Int64 {
        if number.isNaN { return 0 }
        // 2^63 is exactly representable; every double at or above it is past `Int64.max`.
        if number >= 9_223_372_036_854_775_808.0 { return .max }
        if number <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(number.rounded(.towardZero))
    }

    /// `kvs.synchronize`: the store is already persisted; fetch.
    public mutating func synchronize(_ context: inout EngineContext) {
        syncNow(&context)
        proceed(&context)
    }

    /// Foreground and `synchronize`: the app asks now, so the fetch does not wait out the backoff
    /// (but still any `retryAfter` the cloud gave).
    mutating func syncNow(_ context: inout EngineContext) {
        stored.retryAfter.stopWaitingOutBackoff(armed: &retryArmed, timer: EngineTimer(TimerKind.retry), &context)
        requestFetch()
    }

    // MARK: - Helpers

    /// The local store's usage of the limits (the app's pending writes included).
    func usage() -> KVSUsage {
        var usage = KVSUsage()
        for (_, local) in stored.values {
            if let value = local.value { usage.keyCount += 1; usage.totalBytes += value.sizeBytes }
        }
        return usage
    }

    /// A call's entries with each key once (the last occurrence wins), in first-occurrence order.
    static func lastPerKey(_ entries: [KVSEntry]) -> [KVSEntry] {
        var result: [KVSEntry] = []
        for entry in entries {
            if let index = result.firstIndex(where: { $0.key == entry.key }) { result[index] = entry } else { result.append(entry) }
        }
        return result
    }

    /// Keys in UTF-8 byte order, each once: the order notifications list them.
    static func sortedKeys(_ keys: [String]) -> [String] {
        var unique: [String] = []
        for key in keys where !unique.contains(key) { unique.append(key) }
        return unique.sorted { UTF8Order.precedes($0, $1) }
    }
}

extension KVSEngine {
    /// The checker's item for `key` in the account this store's data belongs to.
    public func itemKey(_ key: String) -> ItemKey { item(key) }

    /// Every key's local state (tombstones included), shared with the engine until it changes.
    public var localValues: LocalStore { stored.values }

    /// The local value of `key` and the write that made it (nil: absent).
    public func localValue(forKey key: String) -> (value: PlistValue, write: WriteID?)? {
        guard let local = stored.values[key], let value = local.value else { return nil }
        return (value, local.write)
    }
}
