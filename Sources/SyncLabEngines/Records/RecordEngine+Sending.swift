import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// Starts whatever work can start now: the subscription, a fetch, the next send. Nothing
    /// goes out while offline, signed out, or before a retry timer fires (so never before a
    /// `retryAfter`).
    mutating func pump(_ context: inout EngineContext) {
        guard online, state.account != nil, !retryArmed else { return }
        if !subscribing {
            if wantsPrivateSubscription {
                subscribing = true
                send(.createSubscription(database: .private), .subscribe(.private), &context)
                privateSubscribeRequest = state.requestCounter
            } else if wantsPublicSubscription {
                subscribing = true
                send(.createSubscription(database: .public), .subscribe(.public), &context)
            }
        }
        if wantFetch {
            if fetchPhase == .idle { startFetch(&context) } else { fetchAgain = true; wantFetch = false }
        }
        if !sending { sendNext(&context) }
    }

    mutating func send(_ request: RecordRequest, _ kind: InFlight, _ context: inout EngineContext) {
        let id = nextRequestID()
        inFlight.append((id, kind, accountEpoch))
        context.emit(.send(requestID: id, .records(request)))
    }

    /// Sends the next batch: zone operations first, then record changes in queue order. An
    /// atomic group goes alone in one atomic request; other changes fill a request up to the
    /// batch and byte limits.
    mutating func sendNext(_ context: inout EngineContext) {
        if let first = state.zoneOperations.first {
            var operations: [PendingZoneOperation] = []
            for operation in state.zoneOperations where operation.zone.database == first.zone.database
                && !operations.contains(where: { $0.zone == operation.zone }) {
                operations.append(operation)
            }
            var saves: [String] = [], deletes: [ZoneDeletion] = []
            for operation in operations {
                switch operation.kind {
                case .create: saves.append(operation.zone.zone)
                case .delete(let deletion): deletes.append(deletion)
                }
            }
            beginSending(&context)
            sending = true
            send(.modifyZones(database: first.zone.database, saves: saves, deletes: deletes), .zones(operationIDs: operations.map(\.id)), &context)
            return
        }
        // Nothing pending, nothing to list: called from this mutating method, `sendableKeys()`
        // was given a copy of the whole engine (488 bytes) at every pump (issue 13, session 11).
        let keys = state.pending.isEmpty ? [] : sendableKeys()
        guard let firstKey = keys.first else {
            if sentSinceIdle {
                sentSinceIdle = false
                context.log("didSendChanges", [])
            }
            return
        }
        let database = firstKey.database
        var batch = SentBatch(database: database, saves: [], deletes: [], atomic: false, zoneDeletionsBefore: zoneDeletions)
        var saves: [RecordSave] = [], deletes: [RecordDeletion] = []
        var bytes = 0
        if let group = state.pending[firstKey]!.atomicGroup, firstKey.zone != RecordID.defaultZone {
            batch.atomic = true
            let members = keys.filter { $0.database == database && state.pending[$0]!.atomicGroup == group }
            // Saves in doubt go out again first, as the one request they went in, alone: a later
            // call joined to the group since follows whole once they are answered. A delete that
            // replaced one of those saves stands in its place (records seed 2610), and a delete
            // that went in that request goes again with it (records seed 24280: after a throttled
            // answer the call's save went again alone, then its delete, and another device
            // fetched the call's other record between the two).
            let inDoubt = members.filter { state.pending[$0]!.inDoubt != nil || state.pending[$0]!.replacesSaveInDoubt || state.pending[$0]!.deleteSent }
            for key in inDoubt.contains(where: { state.pending[$0]!.inDoubt != nil }) ? inDoubt : members {
                add(key, &batch, &saves, &deletes, &bytes)
            }
        } else {
            // Deletes this device made as the cascade of a delete still pending go in the request
            // that carries that delete, or after its answer (which lists what the cloud cascaded):
            // sent before it, alone under a batch limit, the referencing record went while the
            // one it references stayed, and another device fetched the write in part (records
            // seed 7471 as shrunk once the stale-fetch fix was in).
            var cascaded: [RecordKey] = []
            for key in keys where key.database == database {
                let change = state.pending[key]!
                if change.atomicGroup != nil && key.zone != RecordID.defaultZone { continue }
                if cascadeRootPending(key, change) { cascaded.append(key); continue }
                if batch.itemCount >= batchCap { break }
                let size = sizeBytes(of: key)
                if batch.itemCount > 0 && bytes + size > bytesCap { break }
                add(key, &batch, &saves, &deletes, &bytes)
            }
            // Then those whose root is in this request, in queue order, level by level.
            var added = true
            while added && !cascaded.isEmpty {
                added = false
                for key in cascaded {
                    guard let from = state.pending[key]!.cascadeOf,
                          batch.deletes.contains(where: { $0.key == RecordKey(database: key.database, zone: key.zone, name: from) }),
                          batch.itemCount < batchCap, bytes + sizeBytes(of: key) <= bytesCap else { continue }
                    add(key, &batch, &saves, &deletes, &bytes)
                    added = true
                }
                cascaded.removeAll { key in batch.deletes.contains { $0.key == key } }
            }
        }
        guard batch.itemCount > 0 else { return }
        beginSending(&context)
        sending = true
        context.log("sendingBatch", [("saves", String(saves.count)), ("deletes", String(deletes.count)), ("atomic", String(batch.atomic))])
        let modify = RecordModify(database: database, saves: saves, deletes: deletes, atomic: batch.atomic, savePolicy: identity.settings.records.savePolicy)
        send(.modifyRecords(modify), .records(batch), &context)
    }

    private mutating func beginSending(_ context: inout EngineContext) {
        if !sentSinceIdle {
            sentSinceIdle = true
            context.log("willSendChanges", [])
        }
    }

    /// A delete this device made as the cascade of another record's delete by the same write,
    /// which is still pending (see `awaitsCascadeRoot` for the public database).
    private func cascadeRootPending(_ key: RecordKey, _ change: PendingRecordChange) -> Bool {
        guard case .delete(let write) = change.kind, let from = change.cascadeOf,
              case .delete(let fromWrite)? = state.pending[RecordKey(database: key.database, zone: key.zone, name: from)]?.kind else { return false }
        return fromWrite == write
    }

    /// The bytes a pending change adds to a request.
    private func sizeBytes(of key: RecordKey) -> Int {
        saveToSend(key)?.save.sizeBytes ?? key.name.utf8.count
    }

    /// The save to send for a pending change: the one still in doubt, re-sent exactly as it went
    /// (so the cloud can tell it is the same write), else a fresh one.
    private func saveToSend(_ key: RecordKey) -> (save: RecordSave, sent: [String: WriteID])? {
        guard let change = state.pending[key], case .save = change.kind else { return nil }
        if let save = change.inDoubt { return (save, save.fields.mapValues(\.write)) }
        return buildSave(key)
    }

    private mutating func add(_ key: RecordKey, _ batch: inout SentBatch, _ saves: inout [RecordSave], _ deletes: inout [RecordDeletion], _ bytes: inout Int) {
        switch state.pending[key]!.kind {
        case .delete(let write):
            deletes.append(RecordDeletion(id: key.id, write: write))
            batch.deletes.append((key, write))
            bytes += key.name.utf8.count
            state.pending[key]!.deleteSent = true
        case .save:
            guard let built = saveToSend(key) else { return }
            saves.append(built.save)
            batch.saves.append((key, built.sent))
            bytes += built.save.sizeBytes
            // Durably, before the request leaves: if its answer never comes (lost, or a crash),
            // this very save is what goes out again.
            state.pending[key]!.inDoubt = built.save
        }
    }

    /// The save a pending change sends: the changed fields (every local field under `allKeys`,
    /// or when re-uploading a record the cloud no longer has), each with its original write id.
    func buildSave(_ key: RecordKey) -> (save: RecordSave, sent: [String: WriteID])? {
        guard let change = state.pending[key], case .save(let fields) = change.kind, let local = state.table[local: key] else { return nil }
        let everything = change.reupload || identity.settings.records.savePolicy == .allKeys
        let names = everything ? Set(local.fields.keys) : fields
        var sent: [String: StoredField] = [:], writes: [String: WriteID] = [:]
        for name in names {
            guard let field = local.fields[name] else { continue }
            if change.reupload && field.value == nil { continue }
            sent[name] = field
            writes[name] = field.write
        }
        let tag = change.reupload ? nil : state.table[server: key]?.changeTag
        return (RecordSave(id: key.id, type: local.type, fields: sent, baseTag: tag, existenceWrite: local.existenceWrite), writes)
    }

    /// Backs off before any further request, never sooner than `retryAfter`.
    mutating func scheduleRetry(retryAfter: SimDuration?, reason: String, _ context: inout EngineContext) {
        state.retryAfter.note(retryAfter, now: context.now)
        let delay = backoff.nextDelay(retryAfter: retryAfter)
        retryArmed = true
        context.emit(.setTimer(RecordEngine.retryTimer, after: delay))
        context.log("retryScheduled", [("reason", reason), ("after", delay.description)])
    }

    /// Arms the retry timer for what is left of the cloud's last `retryAfter` (kept durably), if
    /// anything: after a restart or a reconnect nothing goes out before it.
    mutating func honourRetryAfter(_ context: inout EngineContext) {
        guard !retryArmed, let wait = state.retryAfter.remaining(now: context.now) else { return }
        retryArmed = true
        context.emit(.setTimer(RecordEngine.retryTimer, after: wait))
        context.log("retryScheduled", [("reason", "retryAfter"), ("after", wait.description)])
    }

    /// Routes one response to its handler; every request gets exactly one.
    mutating func handleResponse(_ envelope: ResponseEnvelope, _ context: inout EngineContext) {
        guard let place = inFlight.firstIndex(where: { $0.id == envelope.requestID }) else { return }
        let (_, request, epoch) = inFlight.remove(at: place)
        switch request {
        case .zones, .records: sending = false
        case .subscribe: subscribing = false
        case .databaseChanges, .zoneChanges, .query: fetchPhase = .idle
        }
        guard epoch == accountEpoch else {
            // An answer for an account no longer signed in: its data is gone from this device.
            pump(&context)
            return
        }
        switch envelope.result {
        case .failed(let error):
            if case .databaseChanges = request { wantFetch = true } else if case .zoneChanges = request { wantFetch = true } else if case .query = request { wantFetch = true }
            scheduleRetry(retryAfter: error.retryAfter, reason: error.name, &context)
        case .ok(.records(let response)):
            handleRecordResponse(request, response, &context)
        case .ok(.kvs), .ok(.documents):
            break
        }
        pump(&context)
    }

    private mutating func handleRecordResponse(_ request: InFlight, _ response: RecordResponse, _ context: inout EngineContext) {
        if case .failed(let failure) = response {
            handleRequestFailure(request, failure, &context)
            return
        }
        backoff.reset()
        // Switched on the response, the request matched inside each case: a `switch (request,
        // response)` copied both into a tuple (retaining every payload) for each answer.
        switch response {
        case .zonesModified(let saved, let deleted):
            guard case .zones(let ids) = request else { break }
            for operation in state.zoneOperations where ids.contains(operation.id) && operation.kind == .create {
                state.zones[operation.zone, default: LocalZone()].existsOnServer = true
                if fetchPhase == .databaseChanges || fetchPhase == .zoneChanges { zonesCreatedDuringFetch.insert(operation.zone) }
            }
            state.zoneOperations.removeAll { ids.contains($0.id) }
            context.log("sentDatabaseChanges", [("savedZones", saved.joined(separator: ",")), ("deletedZones", deleted.joined(separator: ","))])
            return
        case .recordsModified(let results):
            guard case .records(let batch) = request else { break }
            if fetchPhase == .zoneChanges || fetchPhase == .query {
                // Only changes the cloud applied can make the fetch's answer stale; a refused
                // one (`serverRecordChanged`, say) changed nothing there, and the fetch's version
                // is exactly what its conflict is waiting for.
                let keys = batch.saves.map(\.key) + batch.deletes.map(\.key)
                for (index, result) in results.enumerated() where index < keys.count {
                    if case .failed = result { continue }
                    answeredDuringFetch.insert(keys[index])
                }
            }
            modifyDone(batch, results, &context)
            return
        case .databaseChanges(let changes):
            guard case .databaseChanges = request else { break }
            databaseChangesAnsweredCycle = fetchStartRequest
            databaseChangesDone(changes, &context)
            return
        case .zoneChanges(let zones):
            guard case .zoneChanges = request else { break }
            zoneChangesDone(zones, &context)
            return
        case .queryResult(let zone, let records, let deleted):
            guard case .query = request else { break }
            queryDone(zone, records, deleted, &context)
            return
        case .subscribed:
            guard case .subscribe(let database) = request else { break }
            switch database {
            case .private:
                if let account = state.account, !state.subscribedAccounts.contains(account) {
                    state.subscribedAccounts.append(account)
                    // Changes made before the subscription sent this device no push: unless a
                    // fetch went out after the subscription request, fetch once now, as
                    // CKSyncEngine does (SPEC §3.3: never depend on pushes).
                    // A fetch sent after the subscription request but answered before its
                    // answer (a link that reorders) may have been run before the subscription
                    // too: changes between the two reached this device neither way (records
                    // seed 33707: a divergence after an account switch). Fetch once more.
                    if fetchStartRequest < privateSubscribeRequest || databaseChangesAnsweredCycle > privateSubscribeRequest { wantFetch = true }
                }
            case .public:
                state.publicSubscribed = true
                wantFetch = true
            }
            return
        case .failed:
            break
        }
        // A response of another kind than its request's.
        context.log("unexpectedResponse", [])
    }

    /// A whole request failed at the service.
    private mutating func handleRequestFailure(_ request: InFlight, _ failure: RecordRequestFailure, _ context: inout EngineContext) {
        switch failure {
        case .limitExceeded:
            guard case .records(let batch) = request else { return }
            if batch.itemCount > 1 && !batch.atomic {
                batchCap = max(1, batch.itemCount / 2)
                context.log("batchSplit", [("items", String(batch.itemCount)), ("nextBatch", String(batchCap))])
            } else {
                // Nothing left to split: this change can never be sent.
                var writes: Set<WriteID> = []
                for save in batch.saves { writes.formUnion(sentWrites(save.key, save.fields)) }
                for delete in batch.deletes { writes.insert(delete.write) }
                // An atomic call refused whole takes back the call's writes, not the engine's own
                // merge results pending on its records: those stay and go out alone (records seed
                // 1169: a merge of two equal values was taken back, and an edit lost with it).
                if batch.atomic { writes = writes.filter { !$0.derived } }
                rollback(writes, error: "limitExceeded", limit: RecordEngine.limitBroken(items: batch.itemCount, identity.limits.records), &context)
                applyHeldZoneDeletions(&context)
                releaseHeldFetches(&context)
            }
        case .changeTokenExpired:
            state.databaseToken = nil
            wantFetch = true
        case .zoneBusy(let after), .requestRateLimited(let after):
            if case .records = request {} else if case .zones = request {} else if case .subscribe = request {} else { wantFetch = true }
            scheduleRetry(retryAfter: after, reason: failure.name, &context)
        case .invalidArguments(let detail):
            if case .zones(let ids) = request { state.zoneOperations.removeAll { ids.contains($0.id) } }
            context.log("requestRejected", [("detail", detail)])
            context.emit(.notify(AppNotification(store: .records, reason: "error", items: [])))
        }
    }

    /// The writes a sent save stands for: its fields' and, for a creation, the existence item's.
    func sentWrites(_ key: RecordKey, _ fields: [String: WriteID]) -> Set<WriteID> {
        var writes = Set(fields.values)
        if state.table[server: key] == nil, let record = state.table[local: key] { writes.insert(record.existenceWrite) }
        return writes
    }

    /// Per-item results of a modify request, in request order (saves, then deletes).
    private mutating func modifyDone(_ batch: SentBatch, _ results: [RecordItemResult], _ context: inout EngineContext) {
        var saved = 0, deleted = 0, failed = 0
        var metInDoubt: [RefusalMetInDoubt] = []
        // In an atomic request, a member that failed for its own reason proves that no earlier
        // send of this request was applied either (the cloud answers a save it already applied
        // as saved, and an atomic request lands whole or not at all): its other members'
        // `batchRequestFailed` then leaves nothing in doubt, so the group goes out again whole.
        let notAppliedBefore = batch.atomic && results.contains { result in
            if case .failed(_, let error) = result { return error != .batchRequestFailed }
            return false
        }
        for (index, result) in results.enumerated() {
            let isSave = index < batch.saves.count
            guard isSave || index - batch.saves.count < batch.deletes.count else { break }
            let key = isSave ? batch.saves[index].key : batch.deletes[index - batch.saves.count].key
            // The zone was deleted here after this request left: the result is about a record
            // that went with it (see `zoneDeletions`); the app was told of the deletion then.
            if (zoneDeletedAt[key.zoneKey] ?? 0) > batch.zoneDeletionsBefore {
                context.log("answerAfterZoneDeleted", [("record", key.itemName)])
                continue
            }
            switch result {
            case .saved(let server):
                saved += 1
                state.pending[key]?.inDoubt = nil
                handleSaved(key, server, sent: batch.saves[index].fields, &context)
            case .deleted where isSave:
                // A save re-sent after its answer was lost, which the cloud applied and a later
                // delete removed: it is done; the record goes here too (the delete had it).
                saved += 1
                savedThenDeleted(key, sent: batch.saves[index].fields, &context)
            case .deletedBefore(_, let current):
                // Applied earlier (its answer was lost); the record was created again since.
                deleted += 1
                if case .delete? = state.pending[key]?.kind { state.pending[key] = nil }
                state.conflictTags[key] = nil
                state.fetchedWhileCreating[key] = nil
                if state.pending[key] == nil {
                    // The version is another device's, made after the delete, and may be part of
                    // an atomic call over other records: like a re-sent save's answer, it shows
                    // with the next fetch, which brings the whole call (records seed 310).
                    state.table[server: key] = nil
                    if !zoneDeleteQueued(key.zoneKey) {
                        state.heldUntilFetch[key] = current
                        wantFetch = true
                        context.log("deletedAwaitsFetch", [("record", key.itemName)])
                    }
                } else {
                    state.table[server: key] = current
                    if !zoneDeleteQueued(key.zoneKey), applyServer(key, current, .fetch, &context) { fetchedItems.append(key.itemName) }
                }
            case .deleted(_, let cascaded):
                deleted += 1
                let write = batch.deletes[index - batch.saves.count].write
                if case .delete(let pendingWrite)? = state.pending[key]?.kind, pendingWrite == write { state.pending[key] = nil }
                if state.pending[key] == nil {
                    state.table[server: key] = nil
                    // A version fetched while the delete was out is gone with it (unconditional),
                    // and so is one held for another record's answer or for the next fetch: it
                    // predates the delete (records seed 636: the held version brought the deleted
                    // record back; seed 6514 likewise for a version a save's answer brought).
                    // On a link that reorders, though, the fetch that brought such a version can
                    // have been answered after the delete was applied and overtaken its answer:
                    // the version is then the record made again since (another device's edit
                    // re-uploaded after its `unknownItem`), and the zone's token is already past
                    // it, so no fetch would bring it again (records seed 32293: a divergence).
                    // The device cannot tell which: it fetches the zone from scratch, which
                    // brings the record if the cloud has it.
                    let fetchedInDoubt = state.fetchedWhileCreating.removeValue(forKey: key) != nil
                    let heldFetched = state.heldFetched.removeValue(forKey: key) != nil
                    // A deletion held for another record's answer is done by this one.
                    state.heldDeletions[key] = nil
                    let dropped = fetchedInDoubt || heldFetched
                    state.heldUntilFetch[key] = nil
                    if dropped, state.zones[key.zoneKey] != nil {
                        state.zones[key.zoneKey]!.token = nil
                        state.zones[key.zoneKey]!.needsFetch = true
                        wantFetch = true
                        context.log("refetchAfterDelete", [("record", key.itemName)])
                    }
                }
                state.conflictTags[key] = nil
                for id in cascaded {
                    // The cloud applies a request's deletes before its saves: a record the cascade
                    // reached that this request saved was made again after it, and stays (records
                    // seed 11521: B's r1, re-uploaded after `unknownItem` beside its delete of r2,
                    // was dropped here by r2's cascade of the old r1, while the cloud kept it).
                    if savedHere(id, batch, results) { continue }
                    applyFetchedDeletion(RecordKey(database: key.database, id: id), write: write, &context)
                }
            case .failed(_, let error):
                failed += 1
                // The cloud has answered for this save: it is no longer in doubt. Not so for
                // `batchRequestFailed`: the request was not applied, but an earlier send of the
                // same save may have been, so it goes out again as it was.
                if isSave && (error != .batchRequestFailed || notAppliedBefore) { state.pending[key]?.inDoubt = nil }
                if !isSave && (error != .batchRequestFailed || notAppliedBefore) { state.pending[key]?.deleteSent = false }
                let writes: Set<WriteID> = isSave ? sentWrites(key, batch.saves[index].fields) : [batch.deletes[index - batch.saves.count].write]
                handleItemError(key, error, writes: writes, metInDoubt: &metInDoubt, &context)
                // A version fetched while the refused delete was out waited for this answer.
                if !isSave, state.pending[key]?.awaitingAnswer != true, let seen = state.fetchedWhileCreating.removeValue(forKey: key) {
                    applyFetched(key, seen, &context)
                }
            }
        }
        if notAppliedBefore { releaseDeletesFromRefusedCall(batch) }
        if !metInDoubt.isEmpty { resolveRefusalsMetInDoubt(metInDoubt, &context) }
        context.log("sentRecordZoneChanges", [("saved", String(saved)), ("deleted", String(deleted)), ("failed", String(failed))])
        applyHeldZoneDeletions(&context)
        releaseHeldFetches(&context)
    }

    /// Whether this request saved the record (its answer for one of the request's saves is `saved`).
    private func savedHere(_ id: RecordID, _ batch: SentBatch, _ results: [RecordItemResult]) -> Bool {
        results.prefix(batch.saves.count).contains { if case .saved(let server) = $0 { return server.id == id } else { return false } }
    }

    /// An atomic request refused whole, and never applied before (`notAppliedBefore`): a plain
    /// delete that took the place of one of its saves while it was on the wire no longer stands
    /// in for a save in doubt, and, when the call was refused for space (it stays pending until
    /// room frees, SPEC §4.3), leaves it, as one made after the refusal does (`deleteLocally`):
    /// records seed 14458, B's delete of r0, made while the call went up, was refused with it
    /// for good, and the cloud kept r0.
    private mutating func releaseDeletesFromRefusedCall(_ batch: SentBatch) {
        for key in batch.saves.map(\.key) + batch.deletes.map(\.key) {
            guard let change = state.pending[key], case .delete(let write) = change.kind, change.replacesSaveInDoubt,
                  let group = change.atomicGroup, !atomicCalls(of: group).contains(write) else { continue }
            state.pending[key]!.replacesSaveInDoubt = false
            if !atomicCalls(of: group).isDisjoint(with: state.quotaRejected) { state.pending[key]!.atomicGroup = nil }
        }
    }

    /// The cloud applied this save earlier and a delete removed the record since. Fields the
    /// device changed after that save are edits concurrent with the delete: they win, and go
    /// out as a new record (SPEC §4.3); with none, the record goes here too.
    private mutating func savedThenDeleted(_ key: RecordKey, sent: [String: WriteID], _ context: inout EngineContext) {
        // A version fetched while the save was in doubt is of the record the delete removed, or
        // of one created since under its name (in its zone created again, say): that one shows,
        // as the fetch would have shown it (records seed 172: dropped, the device diverged).
        let seen = state.fetchedWhileCreating.removeValue(forKey: key)
        let deletedExistence = state.table[local: key]?.existenceWrite
        state.table[server: key] = nil
        state.conflictTags[key] = nil
        defer {
            if let seen, seen.existenceWrite != deletedExistence { applyFetched(key, seen, &context) }
        }
        guard var change = state.pending[key], case .save(let fields) = change.kind else { return }
        let newer = fields.filter { name in state.table[local: key]?.fields[name]?.write != sent[name] }
        if newer.isEmpty {
            state.pending[key] = nil
            if state.table[local: key] != nil {
                removeLocal(key, write: nil, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        } else {
            change.inDoubt = nil
            change.kind = .save(fields: newer)
            state.pending[key] = change
            prepareReupload(key, asConflict: true, detail: "record deleted after this device's save", wasInCloud: true, &context)
        }
    }

    /// A save the cloud applied: the fields it carried are acknowledged unless changed again since.
    /// A version fetched while the save was in doubt that is newer than the answer (another
    /// device's write made on top of this save) then meets the device as a fetched change: no
    /// later fetch brings it again (records seed 3440: dropped, the device kept its own title for
    /// good and showed the rest of that device's atomic call beside it).
    private mutating func handleSaved(_ key: RecordKey, _ server: ServerRecord, sent: [String: WriteID], _ context: inout EngineContext) {
        let seen = state.fetchedWhileCreating.removeValue(forKey: key)
        applySaveAnswer(key, server, sent: sent, &context)
        if let seen, seen.changeTag > server.changeTag { applyFetched(key, seen, &context) }
    }

    private mutating func applySaveAnswer(_ key: RecordKey, _ server: ServerRecord, sent: [String: WriteID], _ context: inout EngineContext) {
        if state.pending[key]?.followsSaveInDoubt == true {
            state.pending[key]!.followsSaveInDoubt = false
            removeFieldsDeletedSince(key, server, &context)
        }
        if case .delete? = state.pending[key]?.kind {
            state.table[server: key] = server
            return
        }
        // The app deleted the record's zone while this save was on the wire: the queued zone
        // delete removes the record in the cloud too, so it must not come back here.
        if zoneDeleteQueued(key.zoneKey) { return }
        if var change = state.pending[key], case .save(var fields) = change.kind {
            for (name, write) in sent where fields.contains(name) && state.table[local: key]?.fields[name]?.write == write {
                fields.remove(name)
            }
            // A value the cloud has now decided is no longer this device's pending value: a later
            // write's refusal puts back the server record's value, never this one pending again
            // (records seed 4053: a plain save answered after an atomic call replaced its title
            // went out again at the call's refusal, in a later call's atomic request, and was
            // refused for a batch limit it did not break).
            for (name, write) in sent {
                guard let chain = change.replacedByAtomicCall[name] else { continue }
                let left = chain.filter { $0.earlier.write != write && $0.replacedBy != write }
                change.replacedByAtomicCall[name] = left.isEmpty ? nil : left
            }
            change.reupload = false
            change.quotaBlocked = false
            change.kind = .save(fields: fields)
            state.pending[key] = fields.isEmpty ? nil : change
        }
        // A save re-sent after its answer was lost is answered with the cloud's version now,
        // which may carry other devices' writes made since — part of an atomic call over other
        // records too. Those are shown by the next fetch, which brings the whole call, instead
        // of here (the base stays the one this device had until then).
        let local = state.table[local: key]
        let foreign = RecordEngine.writes(of: server).contains { write in
            !sent.values.contains(write) && write != local?.existenceWrite && !(local?.fields.values.contains { $0.write == write } ?? false)
        }
        if foreign {
            state.heldUntilFetch[key] = server
            wantFetch = true
            context.log("savedAwaitsFetch", [("record", key.itemName)])
            // The base is the one this device had plus the save just acknowledged: the cloud has
            // the record now, a creation too, so a delete made before the fetch goes out (records
            // seed 6514: a creation answered so kept no base, its delete was taken for one of a
            // record never sent and dropped, and the fetch brought the record back).
            state.table[server: key] = acknowledged(state.table[server: key], by: server, sent: sent, local: local)
            if state.pending[key] != nil {
                // Local edits made since that save are still pending: the version meets them when
                // the fetch shows it, as a fetched change does (the app's policy runs), against
                // that base; until then they wait. Taking the version as the base unmerged sent
                // them over those writes unseen (records seed 312).
                awaitingFetch.insert(key)
            }
            return
        }
        state.table[server: key] = server
        applyServer(key, server, .fetch, &context)
    }

    /// This save was answered after the device deleted the record and saved it again (SPEC §4.3:
    /// one save against the last server record seen, which this answer now is): the fields the
    /// answer has that the device's record does not are removed by that later save, as
    /// `applyLocalSave` does when the version is known at the save (mixed seed 8474 without its
    /// last delete: the field the delete had removed came back with the answer).
    private mutating func removeFieldsDeletedSince(_ key: RecordKey, _ server: ServerRecord, _ context: inout EngineContext) {
        guard var change = state.pending[key], case .save(var fields) = change.kind, var local = state.table[local: key] else { return }
        // When that save was made: its own fields carry the time (the latest, so that no order of
        // the dictionary's values can change it: a re-upload re-stamps fields keeping their times).
        let madeAt = local.fields.values.filter { $0.write == local.existenceWrite }.map(\.modifiedAt).max() ?? context.now
        for name in server.fieldNames where server.fields[name]?.value != nil && local.fields[name] == nil {
            local.fields[name] = StoredField(value: nil, write: local.existenceWrite, modifiedAt: madeAt)
            fields.insert(name)
        }
        state.table[local: key] = local
        change.kind = .save(fields: fields)
        state.pending[key] = change
    }

    /// The base a device had, with the fields of its save the cloud just acknowledged taken from
    /// the answer (a creation's base is the answer's record with those fields only). A field the
    /// answer has from a later write was still set by the save first: the base has the save's
    /// value (the device's, while it still shows it), not the one from before the save. It is
    /// also what a later call taken back returns the field to (records seed 52063: a refused call
    /// put back the body from before C's acknowledged save beside that save's title).
    private func acknowledged(_ base: ServerRecord?, by server: ServerRecord, sent: [String: WriteID], local: LocalRecord?) -> ServerRecord {
        var result = base ?? server
        if base == nil {
            result.fields = [:]
            result.changeTag = 0
        }
        for name in sent.keys.sorted() {
            if server.fields[name]?.write == sent[name] {
                result.fields[name] = server.fields[name]
            } else if let field = local?.fields[name], field.write == sent[name] {
                result.fields[name] = field
            }
        }
        return result
    }

    /// One item the cloud refused.
    private mutating func handleItemError(_ key: RecordKey, _ error: RecordError, writes: Set<WriteID>, metInDoubt: inout [RefusalMetInDoubt],
                                          _ context: inout EngineContext) {
        context.log("itemFailed", [("record", key.itemName), ("error", error.name)])
        // The app deleted the record's zone meanwhile: whatever the cloud holds of the record
        // goes with the queued zone delete (its pending changes went when the zone did).
        if zoneDeleteQueued(key.zoneKey) { return }
        switch error {
        case .serverRecordChanged(let server, _, _):
            if case .save? = state.pending[key]?.kind, key.database == .private, key.zone != RecordID.defaultZone,
               let seen = state.fetchedWhileCreating.removeValue(forKey: key) {
                // A fetch brought the cloud's version while this save was in doubt. Fetches after
                // it start from a later token and never bring that version again: waiting for one
                // re-sent the refused save on the same base forever (a run that never settled).
                // That fetched version came whole, so the conflict is resolved against it, once
                // the whole answer is read (`resolveRefusalsMetInDoubt`).
                metInDoubt.append(RefusalMetInDoubt(key: key, seen: seen, refused: server))
            } else if case .save? = state.pending[key]?.kind, key.database == .private, key.zone != RecordID.defaultZone {
                // The server version may hold part of another device's atomic call: showing it
                // now would show that call in part. The fetch brings the whole call in one step
                // and resolves the conflict there (SPEC §4.3, §6).
                awaitConflictFetch(key, server, &context)
            } else if state.pending[key] == nil, key.database == .private, key.zone != RecordID.defaultZone {
                // Nothing of this device's is left to resolve (a refusal of another item of the
                // same answer took the save back whole), so the version would only be shown, and
                // it may be part of another device's atomic call: the fetch brings the whole call
                // in one step (records seed 34369: r0 of F's call showed here, r1 with the fetch).
                refusedVersions[key] = RefusedVersion(server: server, requestCounter: state.requestCounter,
                                                      zoneDeletions: zoneDeletedAt[key.zoneKey] ?? 0, accountEpoch: accountEpoch)
                wantFetch = true
                context.log("refusedVersionAwaitsFetch", [("record", key.itemName)])
            } else {
                resolveConflict(key, server, detail: "serverRecordChanged", &context)
            }
        case .unknownItem:
            if case .delete? = state.pending[key]?.kind {
                state.pending[key] = nil
                state.table[server: key] = nil
            } else {
                prepareReupload(key, asConflict: true, detail: "unknownItem", &context)
            }
        case .zoneNotFound:
            zoneMissing(key.zoneKey, &context)
        case .userDeletedZone:
            dropZone(key.zoneKey, write: nil, &context)
        case .limitExceeded(let limit):
            rollback(writes, error: error.name, limit: limit, &context)
        case .invalidArguments, .permissionFailure:
            rollback(writes, error: error.name, limit: nil, &context)
        case .quotaExceeded:
            quotaBlock(key, &context)
        case .batchRequestFailed:
            break
        }
    }

    /// A save refused with `serverRecordChanged` waits for the next fetch, which resolves its
    /// conflict (against the version it brings, or else the refused one) before it goes again.
    private mutating func awaitConflictFetch(_ key: RecordKey, _ server: ServerRecord, _ context: inout EngineContext) {
        awaitingFetch.insert(key)
        refusedVersions[key] = RefusedVersion(server: server, requestCounter: state.requestCounter,
                                              zoneDeletions: zoneDeletedAt[key.zoneKey] ?? 0, accountEpoch: accountEpoch)
        wantFetch = true
        context.log("conflictAwaitsFetch", [("record", key.itemName)])
    }

    /// Saves of this answer refused with `serverRecordChanged` whose version a fetch brought while
    /// they were in doubt: each conflict is resolved against that version, unless the answer left
    /// a version of another record of its zone waiting for the next fetch (`heldUntilFetch`): the
    /// two came in one fetch and may be parts of one atomic call, which would show in part (records
    /// seed 42833: r1 showed C's call at its refusal while r0, saved in the same answer, waited for
    /// the fetch with the rest of it). Then the refused version waits for that fetch too, which
    /// resolves the conflict in the step that shows the held version (`refusedVersions`).
    private mutating func resolveRefusalsMetInDoubt(_ metInDoubt: [RefusalMetInDoubt], _ context: inout EngineContext) {
        for refusal in metInDoubt {
            let key = refusal.key
            guard case .save? = state.pending[key]?.kind else { continue }
            if state.heldUntilFetch.keys.contains(where: { $0.zoneKey == key.zoneKey && $0 != key }) {
                awaitConflictFetch(key, refusal.refused, &context)
            } else {
                resolveConflict(key, refusal.seen, detail: "fetched change meets pending change", &context)
            }
        }
    }

    /// The cloud refused these writes for good: the app is told, and every field they set goes
    /// back to the last server record seen (a record they created goes away).
    mutating func rollback(_ writes: Set<WriteID>, error: String, limit: String?, _ context: inout EngineContext) {
        let takenBack = withCallsOfRefusedCreations(writes)
        let names = revert(takenBack, cause: .rollback, &context) { write, rejectedItem, context in
            context.observe(.rejected(write: write, item: rejectedItem, error: error, limit: limit))
        }
        leaveGroupsOfTakenBackCalls(takenBack)
        context.emit(.notify(AppNotification(store: .records, reason: "error", items: names)))
    }

    /// A record's pending change that was in an atomic group only for calls now taken back leaves
    /// the group: what it still carries (a plain save put back, a merge result) goes out on its
    /// own, not in the atomic request of a later call the group had joined, which would make it
    /// share that call's fate (records seed 4053: a one-item save went out with a later call's
    /// record and was refused with it over the batch limit). A save in doubt stays: it goes
    /// out again exactly as it went.
    private mutating func leaveGroupsOfTakenBackCalls(_ takenBack: Set<WriteID>) {
        for key in orderedPendingKeys() {
            guard let change = state.pending[key], let group = change.atomicGroup, change.inDoubt == nil, !change.replacesSaveInDoubt else { continue }
            let calls = atomicCalls(of: group)
            guard !calls.isDisjoint(with: takenBack) else { continue }
            let standing = calls.subtracting(takenBack)
            if pendingWrites(of: key).contains(where: { standing.contains($0.0) }) { continue }
            state.pending[key]!.atomicGroup = nil
        }
    }

    /// These writes and the atomic calls that set fields of a record one of them created: the
    /// refused creation takes the whole record back, so such a call (joined to the group after the
    /// request went out) goes whole, never its other records alone (records seed 3765: they went
    /// out and showed the call in part). Calls whose values the writes replaced are not added:
    /// those values come back instead (`replacedByAtomicCall`).
    func withCallsOfRefusedCreations(_ writes: Set<WriteID>) -> Set<WriteID> {
        var result = writes
        var grown = true
        while grown {
            grown = false
            for key in orderedPendingKeys() {
                guard state.table[server: key] == nil, let local = state.table[local: key], result.contains(local.existenceWrite),
                      let change = state.pending[key], let group = change.atomicGroup else { continue }
                let calls = atomicCalls(of: group)
                for (write, _) in pendingWrites(of: key) + foldedWrites(of: change, key) where calls.contains(write) && !result.contains(write) {
                    result.insert(write)
                    grown = true
                }
            }
        }
        return result
    }

    /// Takes these pending writes back, all in this one step: each field they set goes back to the
    /// last server record seen, a record they created goes away, and a delete of theirs is undone.
    /// `report` hears of every pending write taken back.
    /// - Returns: the item names of the records touched, in queue order.
    mutating func revert(_ writes: Set<WriteID>, cause: VisibilityCause, _ context: inout EngineContext,
                         report: (WriteID, ItemKey, inout EngineContext) -> Void) -> [String] {
        var names: [String] = []
        for key in orderedPendingKeys() {
            guard var change = state.pending[key] else { continue }
            switch change.kind {
            case .delete(let write):
                guard writes.contains(write) else { continue }
                report(write, item(key), &context)
                if let earlier = change.saveReplacedByDelete, restoreSaveReplacedByDelete(key, earlier, change, notIn: writes, cause, &context) {
                    names.append(key.itemName)
                    continue
                }
                state.pending[key] = nil
                if let server = state.table[server: key] { applyServer(key, server, cause, &context) }
                names.append(key.itemName)
            case .save(var fields):
                guard var local = state.table[local: key] else { state.pending[key] = nil; continue }
                if let deleted = change.deleteReplacedBySave, writes.contains(local.existenceWrite), !writes.contains(deleted.write) {
                    restoreDeleteReplacedBySave(key, deleted, change, cause, &context, report: report)
                    names.append(key.itemName)
                    continue
                }
                if state.table[server: key] == nil && writes.contains(local.existenceWrite) {
                    reportEveryWrite(of: key, change, &context, report: report)
                    state.pending[key] = nil
                    // Back to the last server record seen: one fetched while the creation was in
                    // doubt stays (with every field it has); with none, the record goes.
                    if let seen = state.fetchedWhileCreating.removeValue(forKey: key) {
                        state.table[server: key] = seen
                        applyServer(key, seen, cause, &context)
                        names.append(key.itemName)
                        continue
                    }
                    removeLocal(key, write: nil, cause, &context)
                    names.append(key.itemName)
                    continue
                }
                var touched = false
                let replaced = change.replacedByAtomicCall
                // A save in doubt that carries a taken-back write never goes out again, even when
                // later writes replaced every field it carried here and the record is untouched
                // (records seed 4053: a call refused whole over the batch limit, its in-doubt save
                // of r1 went out again alone and was applied, the call shown in part).
                let inDoubtTakenBack = change.inDoubt?.fields.values.contains { writes.contains($0.write) } ?? false
                if inDoubtTakenBack { change.inDoubt = nil }
                for name in change.sortedFields {
                    guard let field = local.fields[name], writes.contains(field.write) else { continue }
                    report(field.write, item(key, field: name), &context)
                    touched = true
                    // The device's own earlier pending value that an atomic call replaced comes
                    // back and stays pending: it still goes out and meets other devices' edits
                    // under the conflict policy (records seed 1169: it was dropped unweighed).
                    if let earlier = RecordEngine.earlierPendingValue(field, replaced[name] ?? [], notIn: writes) {
                        local.fields[name] = earlier
                        show(key, field: name, earlier, cause, &context)
                        continue
                    }
                    let back = state.table[server: key]?.fields[name]
                    local.fields[name] = back
                    fields.remove(name)
                    show(key, field: name, back, cause, &context)
                }
                // A taken-back write's value that a later write standing now had replaced here has
                // nothing to roll back, but the app is told it was refused there too: a call whose
                // every value later calls replaced was refused unreported, and lost unseen (records
                // seed 6877, once its in-doubt save no longer went out again).
                let replacedTakenBack = RecordEngine.takenBackUnderStandingWrites(replaced, writes)
                for (write, name) in replacedTakenBack { report(write, item(key, field: name), &context) }
                if !replaced.isEmpty { change.replacedByAtomicCall = RecordEngine.withoutTakenBack(replaced, writes) }
                guard touched else {
                    if !replaced.isEmpty || inDoubtTakenBack { state.pending[key] = change }
                    if !replacedTakenBack.isEmpty { names.append(key.itemName) }
                    continue
                }
                state.table[local: key] = local
                // A save in doubt carrying the taken-back writes must not go out again.
                change.inDoubt = nil
                change.kind = .save(fields: fields)
                state.pending[key] = fields.isEmpty && state.table[server: key] != nil ? nil : change
                names.append(key.itemName)
                // A version fetched while the taken-back save was in doubt waited for its answer:
                // nothing is in doubt now, so it shows (records seed 1211: it never did, and the
                // device kept the older version for good).
                if let seen = state.fetchedWhileCreating.removeValue(forKey: key) { applyFetched(key, seen, &context) }
            }
        }
        return names
    }

    /// Reports every write record `key`'s pending change carries, as a record taken back whole:
    /// its pending values, and the device's earlier pending values that later writes replaced,
    /// which go with the record too, never dropped unseen (records seeds 3358, 5191).
    private func reportEveryWrite(of key: RecordKey, _ change: PendingRecordChange, _ context: inout EngineContext,
                                  report: (WriteID, ItemKey, inout EngineContext) -> Void) {
        let current = pendingWrites(of: key)
        for (write, revertedItem) in current { report(write, revertedItem, &context) }
        for (write, revertedItem) in foldedWrites(of: change, key) where !current.contains(where: { $0 == (write, revertedItem) }) {
            report(write, revertedItem, &context)
        }
    }

    /// Puts back the device's own pending delete that a taken-back save had replaced (the save made
    /// the record again): every write the save's record carries is taken back with it, and the
    /// record is shown deleted by the delete again, which stays pending (SPEC §4.3, §6: the refused
    /// change is rolled back whole, to the state before it, not to the last server record seen).
    private mutating func restoreDeleteReplacedBySave(_ key: RecordKey, _ deleted: DeleteReplacedBySave, _ change: PendingRecordChange,
                                                      _ cause: VisibilityCause, _ context: inout EngineContext,
                                                      report: (WriteID, ItemKey, inout EngineContext) -> Void) {
        reportEveryWrite(of: key, change, &context, report: report)
        removeLocal(key, write: deleted.write, cause, &context)
        var restored = change
        restored.inDoubt = nil
        restored.replacedByAtomicCall = [:]
        restored.kind = .delete(write: deleted.write)
        restored.removedFields = deleted.removedFields
        restored.deletedAt = deleted.deletedAt
        restored.saveReplacedByDelete = deleted.saveReplacedByDelete
        state.pending[key] = restored
    }

    /// Puts back the device's own pending save that a taken-back delete had replaced: the record
    /// as the device showed it before the delete, its pending fields pending again (a field whose
    /// write is itself taken back goes back to the last server record seen). False, changing
    /// nothing, when the record's creation is taken back too.
    private mutating func restoreSaveReplacedByDelete(_ key: RecordKey, _ earlier: SaveReplacedByDelete, _ change: PendingRecordChange,
                                                      notIn writes: Set<WriteID>, _ cause: VisibilityCause, _ context: inout EngineContext) -> Bool {
        let server = state.table[server: key]
        if server == nil && writes.contains(earlier.local.existenceWrite) { return false }
        var local = earlier.local
        var fields = earlier.fields
        for name in fields.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let field = local.fields[name], writes.contains(field.write) else { continue }
            local.fields[name] = server?.fields[name]
            fields.remove(name)
        }
        context.observe(.visible(item: item(key), value: .recordExists(type: local.type), write: local.existenceWrite, cause: cause))
        for name in local.fieldNames { show(key, field: name, local.fields[name], cause, &context) }
        state.table[local: key] = local
        var restored = change
        restored.kind = .save(fields: fields)
        state.pending[key] = fields.isEmpty && server != nil ? nil : restored
        return true
    }

    /// The device's own pending value from before the taken-back writes, walking back through
    /// the values atomic calls replaced; nil when none is left (the last server value applies).
    static func earlierPendingValue(_ field: StoredField, _ replaced: [ReplacedPendingField], notIn writes: Set<WriteID>) -> StoredField? {
        var candidate = field
        var steps = 0
        while writes.contains(candidate.write) {
            // Each step goes one replaced value further back: at most one per entry.
            steps += 1
            guard steps <= replaced.count, let entry = replaced.last(where: { $0.replacedBy == candidate.write }) else { return nil }
            candidate = entry.earlier
        }
        return candidate
    }

    /// Every earlier pending value of the change's fields that a later write replaced on this
    /// device (field by field in name order, oldest first): gone with a refused creation.
    func foldedWrites(of change: PendingRecordChange, _ key: RecordKey) -> [(WriteID, ItemKey)] {
        var result: [(WriteID, ItemKey)] = []
        for name in change.replacedByAtomicCall.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            var listed: Set<WriteID> = []
            for entry in change.replacedByAtomicCall[name]! where listed.insert(entry.earlier.write).inserted {
                result.append((entry.earlier.write, item(key, field: name)))
            }
        }
        return result
    }

    /// The taken-back writes whose values on this record later writes not taken back had replaced,
    /// each with the field, in field name order, once per write and field.
    static func takenBackUnderStandingWrites(_ replaced: [String: [ReplacedPendingField]], _ writes: Set<WriteID>) -> [(WriteID, String)] {
        var result: [(WriteID, String)] = []
        for name in replaced.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            var listed: Set<WriteID> = []
            for entry in replaced[name]! where writes.contains(entry.earlier.write) && !writes.contains(entry.replacedBy) && listed.insert(entry.earlier.write).inserted {
                result.append((entry.earlier.write, name))
            }
        }
        return result
    }

    /// The replaced values left once these writes are taken back: a taken-back value never comes
    /// back later (records seed 4873: a later call's refusal restored the value of an earlier
    /// call refused before it); a value a later call replaced falls back to what stood before.
    static func withoutTakenBack(_ replaced: [String: [ReplacedPendingField]], _ writes: Set<WriteID>) -> [String: [ReplacedPendingField]] {
        var kept: [String: [ReplacedPendingField]] = [:]
        for (name, chain) in replaced {
            let entries: [ReplacedPendingField] = chain.compactMap { entry in
                if writes.contains(entry.replacedBy) { return nil }
                if !writes.contains(entry.earlier.write) { return entry }
                guard let earlier = earlierPendingValue(entry.earlier, chain, notIn: writes) else { return nil }
                return ReplacedPendingField(replacedBy: entry.replacedBy, earlier: earlier)
            }
            if !entries.isEmpty { kept[name] = entries }
        }
        return kept
    }

    /// `quotaExceeded`: the change stays pending (not lost) and waits until space may have freed;
    /// the app is told once per write.
    private mutating func quotaBlock(_ key: RecordKey, _ context: inout EngineContext) {
        guard state.pending[key] != nil else { return }
        state.pending[key]!.quotaBlocked = true
        let pairs = pendingWrites(of: key)
        let fresh = Set(pairs.map(\.0)).subtracting(state.quotaRejected)
        for (write, rejectedItem) in pairs where fresh.contains(write) {
            context.observe(.rejected(write: write, item: rejectedItem, error: "quotaExceeded", limit: "storage"))
        }
        state.quotaRejected.formUnion(fresh)
        if !fresh.isEmpty { context.emit(.notify(AppNotification(store: .records, reason: "error", items: [key.itemName]))) }
        context.emit(.setTimer(RecordEngine.quotaTimer, after: RecordEngine.quotaRecheck))
    }
}
