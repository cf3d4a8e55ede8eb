import SyncLabKernel
import SyncLabProtocol

/// Talking to the cloud: scheduling, requests, answers, and applying the cloud's values.
extension KVSEngine {
    /// Asks for a fetch; if one is on the wire, another follows it (its answer may predate the change).
    mutating func requestFetch() {
        fetchWanted = true
        if inFlight?.kind == .fetch { fetchAgain = true }
    }

    /// Sends the next request if the wire is free, and starts the upload timer when pending calls
    /// have nothing else that will send them. Called after every input.
    mutating func proceed(_ context: inout EngineContext) {
        if inFlight == nil && !retryArmed && canSend {
            if uploadDue && stored.pending.isEmpty { uploadDue = false }
            if uploadDue {
                sendUpload(&context)
            } else if fetchWanted {
                sendFetch(&context)
            }
        }
        if canSend && !stored.pending.isEmpty && !uploadTimerArmed && !uploadDue && inFlight?.kind != .upload {
            // The first pending change starts the timer; later changes join it (no restart).
            let base = identity.settings.kvs.uploadDelay
            let jitter = Int64((Double(base.microseconds) * 0.1 * context.random.nextUnit()).rounded(.down))
            uploadTimerArmed = true
            context.emit(.setTimer(EngineTimer(TimerKind.upload), after: base + .microseconds(jitter)))
        }
    }

    private mutating func nextRequestID() -> UInt64 {
        let id = stored.nextRequestID
        stored.nextRequestID += 1
        return id
    }

    private mutating func sendUpload(_ context: inout EngineContext) {
        // One request on the wire at a time: a fetch answer then reflects every upload the cloud
        // acknowledged before it (see `InFlight`).
        precondition(inFlight == nil, "kvs: upload sent with request \(inFlight.map { String($0.requestID) } ?? "") still on the wire")
        let id = nextRequestID()
        inFlight = InFlight(requestID: id, kind: .upload, calls: stored.pending.map(\.write), stale: false)
        if uploadTimerArmed {
            // Everything pending goes now; the timer would only send an empty upload.
            uploadTimerArmed = false
            context.emit(.cancelTimer(EngineTimer(TimerKind.upload)))
        }
        context.emit(.send(requestID: id, .kvs(.upload(calls: stored.pending))))
        context.log(LogFields("kvsUpload", ("request", .number(id)), ("calls", .count(stored.pending.count))))
    }

    private mutating func sendFetch(_ context: inout EngineContext) {
        precondition(inFlight == nil, "kvs: fetch sent with request \(inFlight.map { String($0.requestID) } ?? "") still on the wire")
        let id = nextRequestID()
        inFlight = InFlight(requestID: id, kind: .fetch, stale: false)
        fetchAgain = false
        context.emit(.send(requestID: id, .kvs(.fetch(since: stored.cursor))))
        context.log(LogFields("kvsFetch", ("request", .number(id)), ("since", .number(stored.cursor, else: "none"))))
    }

    /// Are all of `writes` among `calls`? (Linear for the usual few, a set for a backlog.)
    static func carried(_ writes: [WriteID], by calls: [WriteID]) -> Bool {
        if writes.count * calls.count <= 256 { return writes.allSatisfy(calls.contains) }
        let sent = Set(calls)
        return writes.allSatisfy(sent.contains)
    }

    /// The one answer to the request on the wire.
    mutating func receive(_ envelope: ResponseEnvelope, _ context: inout EngineContext) {
        guard let request = inFlight, request.requestID == envelope.requestID else {
            context.log("kvsIgnoredResponse", [("request", String(envelope.requestID))])
            return
        }
        inFlight = nil
        if request.stale {
            context.log("kvsDroppedResponse", [("request", String(envelope.requestID)), ("why", "account switched")])
            settleUploadAtSwitch(envelope.result, &context)
            return
        }
        switch envelope.result {
        case .failed(let error):
            failed(error, request, &context)
        case .ok(.kvs(.uploaded(let accepted, let rejected, let superseded))):
            // The cloud decides only calls this upload carried.
            precondition(request.kind == .upload && KVSEngine.carried(accepted + rejected.map(\.write), by: request.calls),
                         "kvs: upload answer \(envelope.requestID) decides calls it did not carry: accepted \(accepted), rejected \(rejected.map(\.write)), sent \(request.calls)")
            backoff.reset()
            uploaded(accepted: accepted, rejected: rejected, superseded: superseded, &context)
        case .ok(.kvs(.changes(_, _))) where account == nil:
            // Signed out since the fetch went out: the device is in no account now, so it takes
            // none of the account's news (SPEC §3.4); the store keeps what it had, and the cursor
            // stays, so the fetch after the next sign-in to this account brings them.
            context.log("kvsDroppedResponse", [("request", String(envelope.requestID)), ("why", "signed out")])
        case .ok(.kvs(.changes(let changes, let cursor))):
            // The account's change sequence only grows: a fetch never moves the cursor back.
            precondition(cursor >= stored.cursor ?? 0, "kvs: fetch \(envelope.requestID) moved the cursor back from \(stored.cursor ?? 0) to \(cursor)")
            backoff.reset()
            stored.cursor = cursor
            let initialSync = !stored.initialSyncDone
            let reason = initialSync ? "initialSyncChange" : "serverChange"
            stored.initialSyncDone = true
            if !fetchAgain { fetchWanted = false }
            // `reason` again, as literals the trace copies (a line on most steps: no strings built).
            context.log(LogFields("kvsFetched", ("request", .number(envelope.requestID)), ("changes", .count(changes.count)),
                                  ("cursor", .number(cursor)), ("reason", .literal(initialSync ? "initialSyncChange" : "serverChange"))))
            applyRemote(changes, reason: reason, &context)
        case .ok(.documents), .ok(.records):
            // Another service's answer under this request id is a host bug; retry the work.
            context.log("kvsUnexpectedResponse", [("request", String(envelope.requestID))])
            failed(.networkFailure, request, &context)
        }
    }

    /// A request failed: retry after backoff (never before `retryAfter`), or wait for the network.
    private mutating func failed(_ error: TransportError, _ request: InFlight, _ context: inout EngineContext) {
        if request.kind == .upload { uploadDue = true }
        if error == .networkUnavailable && !online {
            // Offline: nothing reached the cloud. Reconnecting resumes the work.
            context.log("kvsWaitingForNetwork", [("request", String(request.requestID))])
            return
        }
        stored.retryAfter.note(error.retryAfter, now: context.now)
        let delay = backoff.nextDelay(retryAfter: error.retryAfter)
        retryArmed = true
        context.emit(.setTimer(EngineTimer(TimerKind.retry), after: delay))
        context.log("kvsRetry", [("request", String(request.requestID)), ("error", error.name), ("after", delay.description)])
    }

    /// Arms the retry timer for what is left of the cloud's last `retryAfter` (kept durably), if
    /// anything: after a restart or a reconnect nothing goes out before it.
    mutating func honourRetryAfter(_ context: inout EngineContext) {
        guard !retryArmed, let wait = stored.retryAfter.remaining(now: context.now) else { return }
        retryArmed = true
        context.emit(.setTimer(EngineTimer(TimerKind.retry), after: wait))
        context.log("kvsRetry", [("error", "retryAfter"), ("after", wait.description)])
    }

    /// An upload's answer: decided calls leave the queue; rejected ones roll back; keys the cloud
    /// kept for someone else are applied like fetched changes.
    private mutating func uploaded(accepted: [WriteID], rejected: [KVSRejection], superseded: [KVSChange], _ context: inout EngineContext) {
        uploadDue = false
        let decided = Set(accepted).union(rejected.map(\.write))
        let rejectedCalls = stored.pending.filter { call in rejected.contains { $0.write == call.write } }
        stored.pending.removeAll { decided.contains($0.write) }
        // An empty queue lets its buffer go: `proceed` and `isQuiescent` ask whether it is empty
        // after every input, and a kept buffer (a heap object of its own per device) was a cache
        // miss each time at 1,000 devices; the shared empty array's count is always at hand.
        if stored.pending.isEmpty { stored.pending = [] }
        context.log("kvsUploaded", [("accepted", String(accepted.count)), ("rejected", String(rejected.count)),
                                                          ("superseded", String(superseded.count)), ("pending", String(stored.pending.count))])
        if !rejectedCalls.isEmpty { rollBack(rejectedCalls, rejected, &context) }
        if !superseded.isEmpty {
            if stored.initialSyncDone {
                applyRemote(superseded, reason: "serverChange", &context)
            } else {
                // Before the first sync the cloud's values come with it, in one initialSyncChange
                // (SPEC §4.1), and every key of each call at once: the fetch brings them all.
                requestFetch()
            }
        }
    }

    /// The cloud refused these calls whole (a limit broken only in the cloud, or newer writes on
    /// some of their keys): each key still showing the refused write goes back to the cloud's
    /// value. The app is told: `quotaViolationChange` for a limit; for calls that lost to newer
    /// writes, `serverChange` with the keys whose value changed (the cloud reported why).
    private mutating func rollBack(_ calls: [KVSCall], _ rejections: [KVSRejection], _ context: inout EngineContext) {
        var quotaKeys: [String] = []
        var removedKeys: [String] = []
        // The cloud's state of the keys of calls that lost to newer writes: taken as a fetch
        // would (like the `superseded` keys of an accepted call), whatever the device shows now
        // (a value fetched meanwhile may be older than the cloud's), and the app hears `serverChange`.
        var lostCallChanges: [KVSChange] = []
        for call in calls {
            guard let rejection = rejections.first(where: { $0.write == call.write }) else { continue }
            for entry in call.entries {
                if rejection.limit != nil { quotaKeys.append(entry.key) }
                let cloud = rejection.current.first { $0.key == entry.key }
                // Before the first sync the cloud's values come with it, all at once in its
                // initialSyncChange (SPEC §4.1): taking one now could show one key of another
                // device's setMany without the rest. A key the cloud never had goes now (no
                // fetch would bring its absence).
                if cloud != nil && !stored.initialSyncDone {
                    requestFetch()
                    continue
                }
                if let cloud, rejection.limit == nil {
                    if !lostCallChanges.contains(where: { $0.key == cloud.key }) { lostCallChanges.append(cloud) }
                    continue
                }
                // A later local write (or a newer fetched value) shows now: nothing to undo.
                guard stored.values[entry.key]?.write == call.write else { continue }
                if let cloud {
                    stored.values[entry.key] = LocalValue(cloud.state)
                } else {
                    stored.values[entry.key] = nil
                    if rejection.limit == nil { removedKeys.append(entry.key) }
                }
                context.observe(.visible(item: item(entry.key), value: cloud?.value.map(ItemValue.kvs) ?? .absent,
                                         write: cloud?.write, cause: rejection.limit == nil ? .fetch : .rollback))
            }
            if let limit = rejection.limit {
                for entry in call.entries {
                    context.observe(.rejected(write: call.write, item: item(entry.key), error: "quotaViolation", limit: limit))
                }
            }
        }
        if !quotaKeys.isEmpty {
            context.emit(.notify(AppNotification(store: .kvs, reason: "quotaViolationChange", items: KVSEngine.sortedKeys(quotaKeys))))
        }
        // One notification for everything the lost calls changed: also a key that a call refused
        // for a limit shares with them (listed in quotaViolationChange too), since what the app
        // sees there changed because a lost call's value went, as by a fetch (fuzz kvs seed 23206).
        if !lostCallChanges.isEmpty || !removedKeys.isEmpty {
            applyRemote(lostCallChanges, reason: "serverChange", alsoChanged: removedKeys, &context)
        }
    }

    /// Applies the cloud's state of some keys, then sends ONE notification listing exactly the
    /// keys whose visible value changed (none: no notification).
    ///
    /// A fetched value older than this device's own pending write for that key does not replace
    /// it (SPEC §4.1): under `device` timestamps "older" compares change timestamps (a tie keeps
    /// the pending write, which reaches the cloud later and wins the tie); under `server` order a
    /// pending write always arrives later, so it always stays.
    /// `alsoChanged`: keys the caller already changed in the same step, listed in the same notification.
    mutating func applyRemote(_ changes: [KVSChange], reason: String, alsoChanged: [String] = [], _ context: inout EngineContext) {
        // The host's buffer when it lends one: every device's fetch of every write notifies, and
        // a new array for each was an allocation and a free (most of the KVS bench's, kvs17).
        var changedKeys = context.takeKeysBuffer()
        // The cloud already sends changes sorted by key: sort (and copy) only when they are not.
        // The sort is stable, so an already ordered list is exactly what it would give.
        func precedes(_ lhs: KVSChange, _ rhs: KVSChange) -> Bool { UTF8Order.precedes(lhs.key, rhs.key) }
        // One change (nearly every fetch of the KVS bench) is in order without the zip's two
        // references to the array; and walked by index, the array is not retained by an iterator.
        let inOrder = changes.count < 2 || zip(changes, changes.dropFirst()).allSatisfy { !precedes($1, $0) }
        let ordered = inOrder ? changes : changes.sorted(by: precedes)
        for index in ordered.indices {
            let change = ordered[index]
            if let pending = stored.pending.last(where: { call in call.entries.contains { $0.key == change.key } }) {
                if pending.write == change.write { continue }
                switch identity.settings.kvs.timestampSource {
                case .device: if change.timestamp <= pending.timestamp { continue }
                case .server: continue
                }
            }
            // Found by the key's number (this runs for every change every device fetches: see
            // `LocalStore`), and the change's state shared, not copied.
            guard case .replaced(let valueChanged) = stored.values.apply(change) else { continue }
            context.observe(.visible(item: item(change.key), value: change.value.map(ItemValue.kvs) ?? .absent,
                                     write: change.write, cause: .fetch))
            if valueChanged && changedKeys.last != change.key { changedKeys.append(change.key) }
        }
        if !alsoChanged.isEmpty {
            context.emit(.notify(AppNotification(store: .kvs, reason: reason, items: KVSEngine.sortedKeys(changedKeys + alsoChanged))))
        } else if !changedKeys.isEmpty {
            // Already in UTF-8 key order and unique: `ordered` is sorted, so repeats were adjacent.
            context.emit(.notify(AppNotification(store: .kvs, reason: reason, items: changedKeys)))
        }
    }

    /// Signing into an account other than the last: pending calls are discarded, the local store
    /// is cleared (`accountChange` lists the keys removed), and the next fetch is an initial sync.
    mutating func switchAccount(to newAccount: AccountID, _ context: inout EngineContext) {
        // Calls on the wire may be saved by the old account's cloud: its answer decides them.
        let onTheWire = inFlight?.kind == .upload ? inFlight?.calls ?? [] : []
        for call in stored.pending {
            if onTheWire.contains(call.write) {
                stored.uploadAtSwitch.append(call)
                stored.uploadAtSwitchAccount = storeAccount
                continue
            }
            reportDiscarded(call, in: storeAccount, reason: "discarded at account switch", &context)
        }
        stored.pending.removeAll()
        let removed = KVSEngine.sortedKeys(stored.values.compactMap { $0.value.value == nil ? nil : $0.name })
        for key in removed {
            context.observe(.visible(item: item(key), value: .absent, write: nil, cause: .reset))
        }
        stored.values.removeAll()
        stored.cursor = nil
        stored.initialSyncDone = false
        context.emit(.notify(AppNotification(store: .kvs, reason: "accountChange", items: removed)))
        context.log("kvsAccountSwitch", [("from", String(storeAccount.index)), ("to", String(newAccount.index)),
                                                               ("removed", String(removed.count))])
        stored.lastAccount = newAccount
        if uploadTimerArmed {
            uploadTimerArmed = false
            context.emit(.cancelTimer(EngineTimer(TimerKind.upload)))
        }
        uploadDue = false
        fetchAgain = false
        if inFlight != nil { inFlight?.stale = true }
        fetchWanted = true
    }

    /// The answer (or the loss) of the upload that was on the wire at an account switch: calls
    /// the old account's cloud accepted were saved there; rejected ones are reported as such;
    /// any other outcome means they may never have been saved, and they are reported discarded.
    mutating func settleUploadAtSwitch(_ result: ResponseResult?, _ context: inout EngineContext) {
        guard !stored.uploadAtSwitch.isEmpty else { return }
        let account = stored.uploadAtSwitchAccount
        var accepted: [WriteID] = []
        var rejected: [KVSRejection] = []
        if case .ok(.kvs(.uploaded(let yes, let no, _)))? = result { accepted = yes; rejected = no }
        for call in stored.uploadAtSwitch {
            if accepted.contains(call.write) { continue }
            if let rejection = rejected.first(where: { $0.write == call.write }) {
                // A call that lost to newer writes: the cloud reported each key's fate itself.
                guard let limit = rejection.limit else { continue }
                for entry in call.entries {
                    context.observe(.rejected(write: call.write, item: ItemKey(account: account, store: .kvs, name: entry.key),
                                              error: "quotaViolation", limit: limit))
                }
                continue
            }
            let why = result == nil ? "its upload's answer was lost in a crash" : "its upload failed"
            reportDiscarded(call, in: account, reason: "discarded at account switch (\(why))", &context)
        }
        context.log("kvsUploadAtSwitchSettled", [("calls", String(stored.uploadAtSwitch.count)), ("accepted", String(accepted.count))])
        stored.uploadAtSwitch.removeAll()
    }

    private func reportDiscarded(_ call: KVSCall, in account: AccountID, reason: String, _ context: inout EngineContext) {
        for entry in call.entries {
            context.observe(.discarded(write: call.write, item: ItemKey(account: account, store: .kvs, name: entry.key), reason: reason))
        }
    }
}
