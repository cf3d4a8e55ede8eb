import SyncLabKernel
import SyncLabProtocol

/// The cloud side of NSUbiquitousKeyValueStore (SPEC §4.1): one store per account, last-writer-wins
/// per key, limits per account, change tracking by a per-account sequence number.
///
/// - Each uploaded call is decided on its own, atomically, in arrival order: accepted (its keys
///   change, or none when every key lost to a newer write) or refused whole when it would break
///   a limit or when it lost some of its keys to newer writes but not all.
/// - Per key, the later change timestamp wins (`timestampSource: device`: the writing device's
///   clock; `server`: arrival order). Equal timestamps: the later arrival wins. Every comparison
///   that discards one write for another is reported as `.lastWriterWins`.
/// - Idempotent: the decision for every call is remembered by its `WriteID`, so a re-sent call
///   gets the same answer and is never applied twice (no spurious last-writer-wins either).
public struct KVSService: Sendable {
    /// The cloud's state of one key: a value or a tombstone.
    struct Entry: Sendable {
        /// The state, shared with every change that reports it (and every device that applies one).
        var state: KVSKeyState
        /// The account's change sequence number when this state was written: fetch cursors.
        var sequence: UInt64

        /// nil: removed (a tombstone, kept so removes propagate).
        var value: PlistValue? { state.value }
        var write: WriteID { state.write.unsafelyUnwrapped }
        /// The change timestamp last-writer-wins compares (device clock or cloud clock).
        var timestamp: LocalInstant { state.timestamp }
    }

    /// What the cloud decided for one call, remembered for re-sends.
    enum Decision: Sendable {
        case accepted
        case rejected(limit: String)
        /// Some keys lost last-writer-wins and some would have won: the call is atomic, so it
        /// loses whole (`key` is the first key it lost).
        case olderThanCloud(key: String)
    }

    /// One account's store.
    struct AccountStore: Sendable {
        /// Every key's number (its place in `entries`), by name: numbers are given in the
        /// order keys are first written and never change, and every change names its key's
        /// number (`KVSChange.number`), so devices and fetches find a key without its name.
        var numbers: NameTable<UInt32> = [:]
        /// Every key's state (tombstones included), by number.
        var entries: ContiguousArray<Entry> = []
        var usage = KVSUsage()
        /// The last change sequence number handed out; the cursor a fetch returns.
        var sequence: UInt64 = 0
        var decisions: [WriteID: Decision] = [:]
        /// Key numbers in the order they changed, one entry per change: a fetch reads the tail
        /// after its cursor instead of scanning every key.
        var changeLog: [(sequence: UInt64, number: UInt32)] = []
        /// The keys of every accepted call of more than one key, by its write: an upload answer
        /// sends all of a call's keys together (see `superseded`).
        var multiKeyCalls: [WriteID: [String]] = [:]
        /// The latest fetch answers (at most `recentAnswersKept`, each non-empty), by cursor, given
        /// since the account's sequence last moved: while it stands still, a fetch after the same
        /// cursor gets the same changes, so it shares the answer already made (see `changes(in:after:)`).
        var recentAnswers: [(cursor: UInt64, changes: [KVSChange])] = []
        /// The account's `sequence` when `recentAnswers` were made.
        var recentAnswersSequence: UInt64 = 0

        /// The state of `key`, nil if it was never written.
        func entry(_ key: String) -> Entry? { numbers[key].map { entries[Int($0)] } }

        /// The change reporting `key`'s state (which must exist).
        func change(_ key: String) -> KVSChange { change(numbers[key].unsafelyUnwrapped) }

        func change(_ number: UInt32) -> KVSChange { KVSChange(number: number, state: entries[Int(number)].state) }

        /// Writes `key`'s state; returns its number (a new one for a key never written).
        mutating func write(_ key: String, _ entry: Entry) -> UInt32 {
            if let number = numbers[key] {
                entries[Int(number)] = entry
                return number
            }
            let number = UInt32(entries.count)
            numbers[key] = number
            entries.append(entry)
            return number
        }
    }

    let limits: KVSLimits
    let timestampSource: TimestampSource
    /// Stores by account, at `place(of:)`; nil for an account that never used KVS. An array,
    /// not a dictionary keyed by account: every request took its store out of the dictionary
    /// and put it back (two hashes and a copy of the store's fields, retaining each, per request).
    var accounts: [AccountStore?] = []

    public init(configuration: CloudConfiguration) {
        limits = configuration.limits.kvs
        timestampSource = configuration.settings.kvs.timestampSource
    }

    /// Handles one request for `request.account`'s store; answers exactly once.
    public mutating func handle(_ request: RequestEnvelope, _ body: KVSRequest, _ context: inout CloudContext) {
        let place = KVSService.place(of: request.account)
        if place >= accounts.count { accounts.append(contentsOf: repeatElement(nil, count: place + 1 - accounts.count)) }
        if accounts[place] == nil { accounts[place] = AccountStore() }
        switch body {
        case .upload(let calls):
            // Moved out (`take`: no copy) and back. Passed in place (`&accounts[place]!`) to a
            // method of `self`, it overlapped the method's own access to `self`, so Swift
            // copied `self` first: the store's decisions, change log and entries were then
            // shared, and this upload's first write to each copied it whole (every upload
            // copied every decision and change the account ever had: quadratic in the run).
            var store = accounts[place].take().unsafelyUnwrapped
            upload(calls, into: &store, request, &context)
            accounts[place] = consume store
        case .fetch(let since):
            let cursor = since ?? 0
            let sequence = accounts[place].unsafelyUnwrapped.sequence
            let changes = KVSService.changes(in: &accounts[place]!, after: cursor)
            context.log(LogFields("kvsFetch", ("since", .number(since, else: "none")), ("changes", .count(changes.count)), ("cursor", .number(sequence))))
            context.respond(to: request, .kvs(.changes(changes, cursor: sequence)))
        }
    }

    /// An account's place in `accounts`: its index, shifted by one so that the public database
    /// (index -1, never a KVS account) has one too.
    static func place(of account: AccountID) -> Int { Int(account.index) + 1 }

    /// The store of `account`, if it ever used KVS.
    func store(of account: AccountID) -> AccountStore? {
        let place = KVSService.place(of: account)
        return place < accounts.count ? accounts[place] : nil
    }

    /// Decides each call in order, answers, and pushes to the account's other devices if anything changed.
    private func upload(_ calls: [KVSCall], into store: inout AccountStore, _ request: RequestEnvelope, _ context: inout CloudContext) {
        var accepted: [WriteID] = []
        var rejected: [KVSRejection] = []
        var refused: [(call: KVSCall, decision: Decision)] = []
        var changedAnything = false
        var acceptedKeys: [(key: String, write: WriteID)] = []
        for call in calls {
            let decision: Decision
            if let earlier = store.decisions[call.write] {
                decision = earlier
            } else {
                let outcome = decide(call, in: &store, request.account, &context)
                decision = outcome.decision
                changedAnything = changedAnything || outcome.changed
                store.decisions[call.write] = decision
            }
            switch decision {
            case .accepted:
                accepted.append(call.write)
                for entry in call.entries { acceptedKeys.append((entry.key, call.write)) }
            case .rejected, .olderThanCloud:
                refused.append((call, decision))
            }
        }
        // What a refused call's keys hold is told as the whole upload left them: a later call of
        // the same upload may have changed them since the refusal, and the device, which shows
        // that later call, rolls back to what it is told (fuzz kvs seed 55080: a setMany lost
        // whole, then a set of one of its keys won; told the state at the refusal, the device took
        // back the older value over that set and stayed diverged).
        for (call, decision) in refused {
            let current = KVSService.current(of: call, in: store)
            switch decision {
            case .rejected(let limit): rejected.append(KVSRejection(write: call.write, limit: limit, current: current))
            case .olderThanCloud(let key): rejected.append(KVSRejection(write: call.write, cause: .olderThanCloud(key: key), current: current))
            case .accepted: break
            }
        }
        // Keys an accepted call does not own (it lost, or something newer replaced it): the
        // device must learn the cloud's value. One change per key, sorted by key.
        var supersededKeys: [String] = []
        // The device shows, for each key, the last of these calls that set it: the key is
        // superseded unless the cloud holds that very call's value. An earlier call of this upload
        // owning it is no exception: the device's later call lost to it (a clock jumped back
        // between them, fuzz kvs seed 55080), and the device must take it back.
        var lastAccepted: [String: WriteID] = [:]
        for (key, write) in acceptedKeys { lastAccepted[key] = write }
        for (key, write) in acceptedKeys where lastAccepted[key] == write {
            guard let entry = store.entry(key), entry.write != write else { continue }
            if !supersededKeys.contains(key) { supersededKeys.append(key) }
        }
        // The calls that own those keys are atomic (SPEC §4.1): the device gets every key of
        // theirs, not one key of a `setMany` now and the rest at its next fetch — each in its
        // current state, which may be a later write's (later writes are no violation), whose own
        // other keys then come too. (A key the device already shows with that write is passed
        // over by the engine.)
        // A refused call rolls back to the cloud's values of its keys: the other keys of the
        // calls that own those values come with them, or the device would show part of one.
        for rejection in rejected {
            for change in rejection.current {
                guard let keys = store.multiKeyCalls[change.write] else { continue }
                for other in keys where !supersededKeys.contains(other) && !rejection.current.contains(where: { $0.key == other }) {
                    supersededKeys.append(other)
                }
            }
        }
        var next = 0
        while next < supersededKeys.count {
            let key = supersededKeys[next]
            next += 1
            guard let owner = store.entry(key)?.write, let keys = store.multiKeyCalls[owner] else { continue }
            for other in keys where !supersededKeys.contains(other) && store.numbers[other] != nil {
                supersededKeys.append(other)
            }
        }
        let superseded = supersededKeys.sorted(by: KVSService.keyOrder).map { store.change($0) }
        context.log(LogFields("kvsUpload", ("calls", .count(calls.count)), ("accepted", .count(accepted.count)),
                              ("rejected", .count(rejected.count)), ("superseded", .count(superseded.count))))
        context.respond(to: request, .kvs(.uploaded(accepted: accepted, rejected: rejected, superseded: superseded)))
        if changedAnything {
            context.emit(.pushAccount(PushNotification(store: .kvs, account: request.account), except: request.device))
        }
    }

    /// Decides one call seen for the first time: refuses it whole if it lost some keys and would
    /// win others, or if a limit breaks; else applies its winning keys (all, or none when every
    /// key lost) and reports every last-writer-wins comparison.
    private func decide(_ call: KVSCall, in store: inout AccountStore, _ account: AccountID, _ context: inout CloudContext) -> (decision: Decision, changed: Bool) {
        let timestamp = timestampSource == .device ? call.timestamp : context.now
        // Pass 1: which keys win, and the usage if they were applied.
        var winners: [KVSEntry] = []
        var after = store.usage
        let keys = KVSService.lastPerKey(call.entries)
        for entry in keys {
            let existing = store.entry(entry.key)
            if let existing, !incomingWins(timestamp, over: existing) {
                continue
            }
            after = after.replacing(existing?.value, with: entry.value)
            winners.append(entry)
        }
        if !winners.isEmpty && winners.count < keys.count {
            return (loseWhole(call, keys: keys, winners: winners, timestamp, in: store, account, &context), false)
        }
        if let limit = store.usage.violation(to: after, newValues: winners.compactMap(\.value), limits: limits) {
            context.log("kvsRejected", [("write", KVSService.describe(call.write)), ("limit", limit)])
            return (.rejected(limit: limit), false)
        }
        // Pass 2: apply, reporting each comparison that discarded a write.
        for entry in keys {
            let item = ItemKey(account: account, store: .kvs, name: entry.key)
            let existing = store.entry(entry.key)
            let wins = winners.contains(entry)
            if let existing, existing.write != call.write {
                context.observe(.lastWriterWins(item: item, chosen: wins ? call.write : existing.write,
                                                over: wins ? existing.write : call.write,
                                                rule: ruleName(timestamp, existing)))
            }
            guard wins else { continue }
            store.sequence += 1
            let state = KVSKeyState(key: entry.key, value: entry.value, write: call.write, timestamp: timestamp)
            let number = store.write(entry.key, Entry(state: state, sequence: store.sequence))
            store.changeLog.append((store.sequence, number))
        }
        store.usage = after
        if keys.count > 1 && !winners.isEmpty { store.multiKeyCalls[call.write] = keys.map(\.key) }
        return (.accepted, !winners.isEmpty)
    }

    /// A call that lost last-writer-wins on some keys and would have won on others changes none
    /// of them: SPEC §4.1 makes every call atomic *and* decides each key by timestamp, and the
    /// two agree only if the call is decided whole. (Keeping its winning keys would leave every
    /// device showing part of the call beside a value the call had replaced — under clock skew,
    /// a value its own device had already seen.) The lost comparisons are reported as such; the
    /// keys it would have won are reported discarded, with the reason, so the checker counts them
    /// as lost updates and explains them.
    private func loseWhole(_ call: KVSCall, keys: [KVSEntry], winners: [KVSEntry], _ timestamp: LocalInstant,
                           in store: AccountStore, _ account: AccountID, _ context: inout CloudContext) -> Decision {
        let lost = keys.filter { !winners.contains($0) }
        let firstLost = lost[0].key
        for entry in keys {
            let item = ItemKey(account: account, store: .kvs, name: entry.key)
            if let existing = store.entry(entry.key), !winners.contains(entry) {
                context.observe(.lastWriterWins(item: item, chosen: existing.write, over: call.write, rule: ruleName(timestamp, existing)))
            } else {
                context.observe(.discarded(write: call.write, item: item,
                                           reason: "its call lost key \"\(firstLost)\" to a newer write in the cloud (\(ruleName(timestamp, store.entry(firstLost)!))), and a call is atomic: none of its keys changed"))
            }
        }
        context.log("kvsLostWhole", [("write", KVSService.describe(call.write)), ("lostKeys", String(lost.count)), ("keys", String(keys.count))])
        return .olderThanCloud(key: firstLost)
    }

    /// The cloud's state of every key of `call` that it holds (a missing key was never written).
    static func current(of call: KVSCall, in store: AccountStore) -> [KVSChange] {
        call.entries.compactMap { entry in store.numbers[entry.key].map { store.change($0) } }
    }

    /// Last-writer-wins: the later change timestamp wins; equal timestamps, the later arrival
    /// (the incoming write, since calls are decided in arrival order). Under `server` the
    /// incoming write always arrived later.
    private func incomingWins(_ timestamp: LocalInstant, over existing: Entry) -> Bool {
        switch timestampSource {
        case .device: return timestamp >= existing.timestamp
        case .server: return true
        }
    }

    /// How a comparison was decided, for the checker's explanations.
    private func ruleName(_ timestamp: LocalInstant, _ existing: Entry) -> String {
        switch timestampSource {
        case .device: return timestamp == existing.timestamp ? "device change timestamp (tie: later arrival)" : "device change timestamp"
        case .server: return "server arrival order"
        }
    }

    /// The cloud's live keys of `account`, sorted by item, each with the write that produced it.
    public func finalView(account: AccountID) -> [ViewEntry] {
        guard let store = store(of: account) else { return [] }
        return store.entries.map(\.state.key).sorted(by: KVSService.keyOrder).compactMap { key in
            guard let entry = store.entry(key), let value = entry.value else { return nil }
            return ViewEntry(item: ItemKey(account: account, store: .kvs, name: key), value: .kvs(value), write: entry.write)
        }
    }

    /// The removals whose tombstone is their key's final state, sorted by key: a removal that
    /// stands is not lost, even when no device shows it any more (its device signed into
    /// another account, say).
    public func survivingRemovals(account: AccountID) -> [WriteID] {
        guard let store = store(of: account) else { return [] }
        return store.entries.map(\.state.key).sorted(by: KVSService.keyOrder).compactMap { key in
            guard let entry = store.entry(key), entry.value == nil else { return nil }
            return entry.write
        }
    }

    // MARK: - Helpers

    /// The current state of every key changed after `cursor`, each once, sorted by key in UTF-8
    /// order (as `ItemKey` sorts), so order is the same in every process.
    /// - Complexity: O(log changes + k log k) for k keys changed since the cursor.
    /// (`inout` only so that the store is read where it lies, never copied.)
    static func changes(in store: inout AccountStore, after cursor: UInt64) -> [KVSChange] {
        // After a write every device of the account fetches, nearly all after the same cursor: a
        // thousand identical answers, each a new array (an allocation, a search, a reference
        // count per change, and the free). One answer shared by all costs a reference count.
        if store.recentAnswersSequence != store.sequence {
            store.recentAnswers.removeAll(keepingCapacity: true)
            store.recentAnswersSequence = store.sequence
        }
        for index in store.recentAnswers.indices where store.recentAnswers[index].cursor == cursor {
            return store.recentAnswers[index].changes
        }
        let changes = listChanges(in: &store, after: cursor)
        // Nothing changed after the cursor: the empty array allocates nothing to share.
        guard !changes.isEmpty else { return changes }
        if store.recentAnswers.count == recentAnswersKept { store.recentAnswers.removeFirst() }
        store.recentAnswers.append((cursor, changes))
        return changes
    }

    /// How many fetch answers `changes(in:after:)` keeps for sharing: the cursors of devices
    /// whose fetches a later write overtook (a few while writes come faster than fetches settle).
    static let recentAnswersKept = 8

    /// `changes(in:after:)` made afresh.
    static func listChanges(in store: inout AccountStore, after cursor: UInt64) -> [KVSChange] {
        var low = 0, high = store.changeLog.count
        while low < high {
            let middle = (low + high) / 2
            if store.changeLog[middle].sequence <= cursor { low = middle + 1 } else { high = middle }
        }
        // A key is listed at its latest change only, so no set is needed to list it once. Every
        // device fetches after every push, usually for one key: one lookup per key, and no sort
        // (nor its copy) when there is nothing to order.
        var changes: [KVSChange] = []
        changes.reserveCapacity(store.changeLog.count - low)
        for index in low..<store.changeLog.count {
            let logged = store.changeLog[index]
            if store.entries[Int(logged.number)].sequence == logged.sequence { changes.append(store.change(logged.number)) }
        }
        if changes.count > 1 { changes.sort { keyOrder($0.key, $1.key) } }
        return changes
    }

    static func keyOrder(_ lhs: String, _ rhs: String) -> Bool { UTF8Order.precedes(lhs, rhs) }

    /// A call's entries with each key once (the last occurrence wins), in first-occurrence order.
    static func lastPerKey(_ entries: [KVSEntry]) -> [KVSEntry] {
        var result: [KVSEntry] = []
        for entry in entries {
            if let index = result.firstIndex(where: { $0.key == entry.key }) { result[index] = entry } else { result.append(entry) }
        }
        return result
    }

    /// `device1:7` (`device1:7d` for a derived write): the cloud knows device indexes, not names.
    static func describe(_ write: WriteID) -> String {
        "device\(write.device.index):\(write.sequence)\(write.derived ? "d" : "")"
    }
}
