import SyncLabKernel
import SyncLabProtocol

extension SyncEnginePlatform {
    mutating func handleResponse(_ envelope: ResponseEnvelope, _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        guard let (request, epoch) = inFlight.removeValue(forKey: envelope.requestID) else { return }
        // An answer for an earlier account's request: that state is gone.
        guard epoch == accountEpoch else { return }
        switch envelope.result {
        case .failed(let transport):
            requestFailed(request, &context)
            if transport != .networkUnavailable { scheduleRetry(retryAfter: transport.retryAfter, reason: transport.name, &context) }
        case .ok(.records(.failed(let failure))):
            requestFailed(request, &context)
            switch failure {
            case .limitExceeded:
                guard case .records(let saves, let deletes) = request else { break }
                if atomicSend == envelope.requestID {
                    // An atomic zone group is refused whole and cannot be split: each of its
                    // changes fails for good, as the built-in engine rolls its group back.
                    let failures = saves.map(\.id) + deletes.map(\.id)
                    let limit = RecordEngine.limitBroken(items: failures.count, identity.limits.records)
                    modifyDone(saves, deletes, failures.map { .failed($0, .limitExceeded(limit: limit)) }, &app, &context)
                } else if saves.count + deletes.count > 1 {
                    batchCap = max(1, (saves.count + deletes.count) / 2)
                    context.log("batchSplit", [("nextBatch", String(batchCap))])
                } else {
                    // One record alone is over the request limit: splitting cannot help. The app
                    // hears of it as that record's failure, as CKSyncEngine reports it.
                    let id = saves.first?.id ?? deletes.first?.id
                    if let id { modifyDone(saves, deletes, [.failed(id, .limitExceeded(limit: "records.requestBytes"))], &app, &context) }
                }
            case .changeTokenExpired:
                state.databaseToken = nil
                stateDirty = true
                wantFetch = true
            case .zoneBusy(let after), .requestRateLimited(let after):
                scheduleRetry(retryAfter: after, reason: failure.name, &context)
            case .invalidArguments(let detail):
                context.log("requestRejected", [("detail", detail)])
                if case .zones(let changes) = request { state.remove(changes); stateDirty = true }
                if case .settingsDeletes(let deletions) = request { labels.settingsDeletes.removeAll { deletions.contains($0) } }
            }
        case .ok(.records(let response)):
            // A send's answer resets the backoff unless its records failed for good (`modifyDone`).
            if case .records = request {} else { backoff.reset() }
            retryAfter.clear()
            answered(request, response, &app, &context)
        case .ok:
            context.log("unexpectedResponse", [])
        }
        pump(&app, &context)
    }

    /// A request failed whole: what it was doing may start again.
    private mutating func requestFailed(_ request: Request, _ context: inout EngineContext) {
        switch request {
        case .zones, .records, .settingsDeletes: sending = false
        case .databaseChanges, .zoneChanges:
            fetching = false
            wantFetch = true
        case .subscribe: subscribing = false
        }
    }

    private mutating func answered(_ request: Request, _ response: RecordResponse, _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        switch (request, response) {
        case (.zones(let changes), .zonesModified(let saved, let deleted)):
            sending = false
            state.remove(changes)
            stateDirty = true
            context.log("sentDatabaseChanges", [("savedZones", saved.joined(separator: ",")), ("deletedZones", deleted.joined(separator: ","))])
            // No fetch after a zone deletion (nor after any send): CKSyncEngine fetches on a
            // push, a timer or the app's request, and the app hears of its own deletion here.
            tell(.sentDatabaseChanges(saved: saved, deleted: deleted, failed: []), &app, &context)
        case (.settingsDeletes(let deletions), .zonesModified(_, let deleted)):
            sending = false
            labels.settingsDeletes.removeAll { deletions.contains($0) }
            context.log("settingsZoneDeletes", [("deletedZones", deleted.joined(separator: ","))])
            // The app hears of it as every other device's app does: a fetched deletion (`purged`).
            wantFetch = true
        case (.records(let saves, let deletes), .recordsModified(let results)):
            sending = false
            modifyDone(saves, deletes, results, &app, &context)
        case (.databaseChanges, .databaseChanges(let changes)):
            databaseChangesDone(changes, &app, &context)
        case (.zoneChanges, .zoneChanges(let zones)):
            zoneChangesDone(zones, &app, &context)
        case (.subscribe, .subscribed):
            subscribing = false
            if let account, !state.subscribedAccounts.contains(account) {
                state.subscribedAccounts.append(account)
                stateDirty = true
                // Changes made before the subscription sent this device no push: unless a fetch
                // went out after the subscription request, fetch once now (as the built-in engine
                // does; a fetch sent after it already covers them).
                if fetchStartRequest < subscribeRequest { wantFetch = true }
            }
        default:
            context.log("unexpectedResponse", [])
        }
    }

    /// Per-record results of a send: the pending changes answered go (a failed one too, as
    /// CKSyncEngine does: the app adds it again if it wants), and the app hears of it all.
    private mutating func modifyDone(_ saves: [RecordSave], _ deletes: [RecordDeletion], _ results: [RecordItemResult],
                                     _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        var saved: [HostedRecord] = [], deleted: [RecordID] = []
        // A failure that sending again at once cannot fix: the next send waits for the backoff,
        // so an app that adds such a change again does not spin.
        var hardFailure: String?
        var failedNames: [String] = []
        var failedSaves: [HostedSaveFailure] = [], failedDeletes: [(id: RecordID, error: String)] = []
        // Removed together at the end: one pass over the pending list for the whole batch.
        var answeredChanges: [PendingRecordChangeData] = []
        func settle(_ change: PendingRecordChangeData, _ engine: inout SyncEnginePlatform) {
            if engine.readded.remove(change) != nil { return }
            answeredChanges.append(change)
        }
        // An atomic request one of whose members the cloud refused for good is refused whole:
        // the own writes its other members carried (`batchRequestFailed`) are rejected with it,
        // as the built-in engine rolls back and reports its whole atomic group (records seed 482:
        // a separate save joined into an atomic action, withdrawn with it, was counted lost).
        let refusal = results.lazy.compactMap { result -> RecordError? in
            guard case .failed(_, let error) = result else { return nil }
            switch error {
            case .limitExceeded, .invalidArguments, .permissionFailure: return error
            default: return nil
            }
        }.first
        // Records this request saved (for a cascade that reached one of them; mostly none cascades).
        func savedHere(_ id: RecordID) -> Bool {
            results.prefix(saves.count).contains { if case .saved(let server) = $0 { return server.id == id } else { return false } }
        }
        for (index, answer) in results.enumerated() {
            let isSave = index < saves.count
            guard isSave || index - saves.count < deletes.count else { break }
            var result = answer
            switch answer {
            // A re-sent save the cloud had applied before a delete removed the record: to the
            // app, as CKSyncEngine says of a save of a deleted record, `unknownItem`.
            case .deleted(let id, _) where isSave: result = .failed(id, .unknownItem)
            // A re-sent delete applied before the record was created again: done.
            case .deletedBefore(let id, _): result = .deleted(id, cascaded: [])
            default: break
            }
            switch result {
            case .saved(let server):
                rememberServer(server)
                settle(.save(server.id), &self)
                saved.append(HostedRecord(server))
            case .deletedBefore:
                break
            case .deleted(let id, let cascaded):
                let write = deletes[index - saves.count].write
                // Made again by another device after this delete was applied: the app hears of
                // it after the delete, with the next fetch (as the built-in engine holds it).
                if case .deletedBefore(_, let current) = answer {
                    heldAfterDelete[id] = current
                    wantFetch = true
                    context.log("deletedAwaitsFetch", [("record", id.itemName)])
                }
                settle(.delete(id), &self)
                // The user's delete removed these too, as one operation: what the app drops of
                // them is that write, this device's own, built on what it showed.
                if !cascaded.isEmpty && write.device == identity.device && !write.derived { labels.ownLater.insert(write) }
                rememberGone(id, write: write, &context)
                deleted.append(id)
                for other in cascaded {
                    // The cloud applies a request's deletes before its saves: a record the cascade
                    // reached that this request also saved was made again after it, and stays
                    // (records seed 770: told it was deleted, the app dropped the record the
                    // cloud kept).
                    if savedHere(other) { continue }
                    rememberGone(RecordID(zone: other.zone, name: other.name), write: write, &context)
                    deleted.append(other)
                }
            case .failed(let id, let error):
                context.log("itemFailed", [("record", id.itemName), ("error", error.name)])
                switch error {
                case .quotaExceeded, .limitExceeded, .invalidArguments, .permissionFailure, .userDeletedZone: hardFailure = error.name
                case .serverRecordChanged, .unknownItem, .zoneNotFound, .batchRequestFailed: break
                }
                // An atomic batch's innocent members were not applied: they simply go again.
                if case .batchRequestFailed = error {
                    if isSave, let refusal { reportRejected(saves[index], refusal, &context) }
                    continue
                }
                if case .serverRecordChanged = error {} else { failedNames.append(id.itemName) }
                if isSave { reportRejected(saves[index], error, &context) }
                // The user deleted the zone in Settings: the edits this save carried never reach
                // the cloud, as the built-in engine reports its pending save (records seed 1030).
                if isSave, case .userDeletedZone = error {
                    var own = saves[index].fieldNames.compactMap { name in saves[index].fields[name].map { ($0.write, item(id, field: name)) } }
                    if saves[index].baseTag == nil { own.append((saves[index].existenceWrite, item(id))) }
                    for (write, carried) in own where write.device == identity.device && !write.derived {
                        context.observe(.discarded(write: write, item: carried, reason: "zone deleted by the user"))
                    }
                }
                if isSave, case .unknownItem = error {
                    let own = saves[index].fieldNames.compactMap { saves[index].fields[$0]?.write }.filter { $0.device == identity.device }
                    goneWithPendingSave(id, writes: own, detail: "unknownItem", &context)
                }
                // The zone is gone, and the record with it: its re-upload into the zone made again
                // is re-stamped like any re-upload, with no conflict (as the built-in engine does).
                if isSave, case .zoneNotFound = error { labels.goneInCloud.insert(item(id)) }
                if isSave {
                    settle(.save(id), &self)
                    var server: HostedRecord?, ancestor: HostedRecord?
                    if case .serverRecordChanged(let serverRecord, _, let ancestorRecord) = error {
                        conflictsUnanswered.insert(id)
                        conflictShown(saves[index], serverRecord, ancestorRecord, &context)
                        // The ancestor first: the server's version is the most recent the app was shown.
                        if let ancestorRecord { rememberServer(ancestorRecord) }
                        rememberServer(serverRecord)
                        mergeSameValues(&context)
                        server = HostedRecord(serverRecord)
                        ancestor = ancestorRecord.map(HostedRecord.init)
                    }
                    failedSaves.append(HostedSaveFailure(record: HostedRecord(saves[index]), error: error.name, serverRecord: server, ancestorRecord: ancestor))
                } else {
                    settle(.delete(id), &self)
                    failedDeletes.append((id, error.name))
                }
            }
        }
        context.log("sentRecordZoneChanges", [("saved", String(saved.count)), ("deleted", String(deleted.count)), ("failed", String(failedSaves.count + failedDeletes.count))])
        if !answeredChanges.isEmpty {
            state.remove(answeredChanges)
            stateDirty = true
        }
        if !failedNames.isEmpty { context.emit(.notify(AppNotification(store: .records, reason: "error", items: failedNames))) }
        tell(.sentRecordZoneChanges(saved: saved, deleted: deleted, failedSaves: failedSaves, failedDeletes: failedDeletes), &app, &context)
        if let hardFailure { scheduleRetry(retryAfter: nil, reason: hardFailure, &context) } else { backoff.reset() }
    }

    /// The cloud refused a save for good (a limit, the quota, the schema, a permission): the
    /// device's own writes it carried are rejected, as the built-in engine reports them, once
    /// each. What the app then shows is its own business.
    private mutating func reportRejected(_ save: RecordSave, _ error: RecordError, _ context: inout EngineContext) {
        let limit: String?
        switch error {
        case .quotaExceeded: limit = "storage"
        case .limitExceeded(let name): limit = name
        case .invalidArguments, .permissionFailure: limit = nil
        case .serverRecordChanged, .unknownItem, .zoneNotFound, .userDeletedZone, .batchRequestFailed: return
        }
        var writes: [(WriteID, ItemKey)] = []
        if save.baseTag == nil { writes.append((save.existenceWrite, item(save.id))) }
        for name in save.fieldNames { if let field = save.fields[name] { writes.append((field.write, item(save.id, field: name))) } }
        for (write, rejectedItem) in writes where write.device == identity.device && !labels.rejected.contains(write) {
            context.observe(.rejected(write: write, item: rejectedItem, error: error.name, limit: limit))
        }
        for (write, _) in writes where write.device == identity.device { labels.rejected.insert(write) }
    }

    /// A `serverRecordChanged` the app is about to hear of: a conflict between the writes the app
    /// sent that the server does not have and the server's writes since the ancestor. The app
    /// resolves it (the checker names it in explanations).
    private mutating func conflictShown(_ sent: RecordSave, _ server: ServerRecord, _ ancestor: ServerRecord?, _ context: inout EngineContext) {
        var ours: [WriteID] = [], theirs: [WriteID] = []
        for name in sent.fieldNames {
            guard let field = sent.fields[name], server.fields[name]?.write != field.write, ancestor?.fields[name]?.write != field.write else { continue }
            ours.append(field.write)
        }
        for name in server.fieldNames {
            guard let field = server.fields[name], ancestor?.fields[name]?.write != field.write, sent.fields[name]?.write != field.write else { continue }
            theirs.append(field.write)
        }
        // Only edits meeting edits are a conflict: a stale tag over nothing new is just a rebase.
        guard !ours.isEmpty, !theirs.isEmpty else { return }
        let conflicting = (ours + theirs + [server.existenceWrite]).sortedUnique()
        let item = item(sent.id)
        let name = identity.recordsApp ?? "records app"
        context.observe(.conflictDetected(item: item, writes: conflicting, detail: "serverRecordChanged"))
        context.observe(.conflictShown(item: item, writes: conflicting, detail: "app \(name)", resolvedBy: ConflictResolver(name)))
        context.emit(.notify(AppNotification(store: .records, reason: "conflict", items: [sent.id.itemName])))
        // Fields both sides changed: which edit the app keeps is read with its view (`reportKeptWrites`).
        for name in sent.fieldNames {
            guard let mine = sent.fields[name], let other = server.fields[name], ours.contains(mine.write), theirs.contains(other.write) else { continue }
            noteFieldConflict(HostedFieldConflict(item: self.item(of: item, field: name), ours: mine, theirs: other))
        }
    }

    /// A fetched record meets the app's unsent edits (the built-in engine's conflict on a fetched
    /// change): each field where the cloud now carries an edit the app was never shown, over an
    /// unsent edit of this device's, is read back with the app's view like a `serverRecordChanged`
    /// (`reportKeptWrites`). The app merges it when it is told of the fetch.
    private mutating func noteFetchedOverUnsentEdits(_ server: ServerRecord) {
        let existence = item(server.id)
        // The server version of a `serverRecordChanged` the app has not answered was handed to
        // it, not taken: an edit made meanwhile is not built on it (records seed 295).
        let unanswered = conflictsUnanswered.contains(server.id)
        for name in server.fieldNames {
            guard let theirs = server.fields[name] else { continue }
            let key = item(of: existence, field: name)
            guard let write = labels.unconfirmed[key], let mine = labels.view(key), mine.write == write, write != theirs.write,
                  unanswered || !labels.seen(key).contains(theirs.write), case .field(let value) = mine.value else { continue }
            noteFieldConflict(HostedFieldConflict(item: key, ours: StoredField(value: value, write: write, modifiedAt: mine.modifiedAt), theirs: theirs))
        }
    }

    /// Notes a field both sides changed, in place of one of the same field still unanswered.
    /// Changed to the same value, it is merged instead (`mergeSameValues`): whatever the app
    /// keeps, it shows a value both edits made.
    private mutating func noteFieldConflict(_ conflict: HostedFieldConflict) {
        if !fieldConflicts.isEmpty { fieldConflicts.removeAll { $0.item == conflict.item } }
        if conflict.ours.value != nil && conflict.ours.value == conflict.theirs.value {
            sameValueConflicts.append(conflict)
            return
        }
        fieldConflicts.append(conflict)
    }

    /// The fields both sides changed to the same value in the server versions just remembered:
    /// where the app still shows this device's edit, the value is now one merged write built on
    /// both edits, as the built-in engine's `merge` makes it ("merge: same value on both
    /// sides"), remembered after the server's values so the app's view and its next save carry
    /// it. Labelled with the server's write, the app's value would report this device's own
    /// edit lost though the cloud holds its value (records seed 117). A view already showing the
    /// merge keeps it (`keepSameValueMerges`).
    mutating func mergeSameValues(_ context: inout EngineContext) {
        guard !sameValueConflicts.isEmpty else { return }
        let conflicts = sameValueConflicts
        sameValueConflicts = []
        for conflict in conflicts {
            guard let value = conflict.ours.value, labels.view(conflict.item)?.write == conflict.ours.write else { continue }
            let merged = context.nextDerivedWrite(on: identity.device)
            let parents = [conflict.ours.write, conflict.theirs.write].sortedUnique()
            let at = max(conflict.ours.modifiedAt, conflict.theirs.modifiedAt)
            context.observe(.derivedWrite(write: merged, item: conflict.item, value: .field(value), parents: parents, why: "merge: same value on both sides"))
            labels.remember(conflict.item, .field(value), merged, at: at)
            labels.sameValueMerges[conflict.item] = SameValueMerge(write: merged, parents: parents, modifiedAt: at)
        }
    }

    /// After a server version is remembered: a field it shows with a write a same-value merge
    /// was built on, and that value, is still the merge to the app (remembered again, as the
    /// most recent); one it shows with the merge itself no longer needs remembering.
    mutating func keepSameValueMerges(_ server: ServerRecord) {
        let existence = item(server.id)
        // In the dictionary's order: each field is its own item, nothing here is reported.
        for (name, field) in server.fields {
            let key = item(of: existence, field: name)
            guard let merge = labels.sameValueMerges[key] else { continue }
            if field.write == merge.write {
                labels.sameValueMerges[key] = nil
            } else if merge.parents.contains(field.write), let value = field.value {
                labels.remember(key, .field(value), merge.write, at: merge.modifiedAt)
            }
        }
    }


    private mutating func databaseChangesDone(_ changes: DatabaseChanges, _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        context.log("fetchedDatabaseChanges", [("changedZones", changes.changedZones.joined(separator: ",")),
                                                ("deletedZones", changes.deletedZones.map(\.zone).joined(separator: ","))])
        var deletions: [HostedZoneDeletion] = []
        for deletion in changes.deletedZones {
            // Records of the zone with a save pending go up again as new ones (re-stamped).
            for change in state.pendingRecordChanges where change.id.zone == deletion.zone {
                if case .save(let id) = change { labels.goneInCloud.insert(item(id)) }
            }
            // So do those whose `serverRecordChanged` the app holds unanswered (its edits wait).
            for id in conflictsUnanswered where id.zone == deletion.zone { labels.goneInCloud.insert(item(id)) }
            zoneGone(deletion.zone, write: deletion.write)
            deletions.append(HostedZoneDeletion(zone: deletion.zone, reason: deletion.byUser ? .purged : .deleted))
        }
        state.databaseToken = changes.token
        var zones = state.zonesToFetch
        for zone in changes.changedZones where !zones.contains(zone) { zones.append(zone) }
        // Each mutation of the list copies it while the app holds the last state it was given:
        // none that would change nothing.
        if !changes.deletedZones.isEmpty { zones.removeAll { zone in changes.deletedZones.contains { $0.zone == zone } } }
        if zones.count > 1 { zones.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        // Kept until each zone's changes arrive: the database token has moved past them, so a
        // zone fetch lost on the way (a timeout) must still be fetched on the retry.
        state.zonesToFetch = zones
        stateDirty = true
        if !changes.changedZones.isEmpty || !deletions.isEmpty {
            tell(.fetchedDatabaseChanges(modified: changes.changedZones, deleted: deletions), &app, &context)
        }
        if zones.isEmpty {
            finishFetch(&app, &context)
        } else {
            send(.fetchZoneChanges(database: .private, zones: zones.map { ZoneFetch(zone: $0, token: state.zoneTokens[$0]) }), .zoneChanges, &context)
        }
    }

    /// The records held after a re-sent delete (`heldAfterDelete`) that the fetch now ending did
    /// not name: the app hears of them as fetched, zone by zone.
    mutating func deliverHeld(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        guard !heldForFetch.isEmpty else { return }
        let held = heldForFetch.values.sorted { $0.id < $1.id }
        heldForFetch = [:]
        var index = 0
        while index < held.count {
            let zone = held[index].id.zone
            var records: [ServerRecord] = []
            while index < held.count && held[index].id.zone == zone { records.append(held[index]); index += 1 }
            let pending = Set(state.pendingRecordChanges)
            for server in records where pending.contains(.save(server.id)) || conflictsUnanswered.contains(server.id) || !labels.unconfirmed.isEmpty {
                noteFetchedOverUnsentEdits(server)
            }
            for server in records { fetchedNames.append(rememberServer(server).name) }
            mergeSameValues(&context)
            tell(.willFetchRecordZoneChanges(zone: zone), &app, &context)
            tell(.fetchedRecordZoneChanges(zone: zone, modified: records, deleted: []), &app, &context)
            tell(.didFetchRecordZoneChanges(zone: zone), &app, &context)
        }
    }

    /// Whether the app has a save of record `id` still to send: a pending save, or the edits of a
    /// `serverRecordChanged` it has not answered (the built-in apps hold one in a custom zone
    /// until a fetch shows the rest of what the cloud has, its save waiting). A deletion the
    /// app then hears of meets those edits as it meets a pending save's: the record goes up
    /// again as a new one, re-stamped at the next reading (records seeds 204, 849: shown with
    /// the version of the failure, the re-upload carried the deleted record's existence back).
    func hasUnsentSave(_ id: RecordID) -> Bool {
        state.pendingRecordChanges.contains(.save(id)) || (!conflictsUnanswered.isEmpty && conflictsUnanswered.contains(id))
    }

    /// A zone is gone from the cloud: what the app shows of it is gone by `write` (if it drops it).
    mutating func zoneGone(_ zone: String, write: WriteID?) {
        heldAfterDelete = heldAfterDelete.filter { $0.key.zone != zone }
        heldForFetch = heldForFetch.filter { $0.key.zone != zone }
        state.zoneTokens[zone] = nil
        state.zonesToFetch.removeAll { $0 == zone }
        guard let write else { return }
        for key in labels.viewKeys.sorted() where key.name.hasPrefix(zone + "/") {
            labels.remember(key, .absent, write, at: labels.view(key)?.modifiedAt ?? LocalInstant(microseconds: 0))
        }
    }

    /// A zone fetched whole (no change token: the first fetch, after `changeTokenExpired`, or a
    /// token of a zone since deleted and made again)
    /// names every record the cloud has there, and no deletion: the records the app shows there
    /// that it does not name are gone from the cloud, and the app is told so as deletions (as the
    /// built-in engine drops them), except those with a change of this device's pending or on
    /// the wire, whose answer the fetch may predate.
    private func vanishedRecords(_ zoneChanges: ZoneChanges) -> [RecordID] {
        guard viewRead else { return [] }
        var named = Set(zoneChanges.changed.map(\.id))
        named.formUnion(zoneChanges.deleted.map(\.id))
        var busy = Set(state.pendingRecordChanges.map(\.id))
        for (request, _) in inFlight.values {
            if case .records(let saves, let deletes) = request {
                busy.formUnion(saves.map(\.id))
                busy.formUnion(deletes.map(\.id))
            }
        }
        let account = account ?? lastAccount
        var vanished: [RecordID] = []
        for (recordKey, entry) in labels.records where recordKey.account == account && entry.entry("")?.view != nil {
            guard let id = recordID(ofName: recordKey.name), id.zone == zoneChanges.zone, !named.contains(id), !busy.contains(id) else { continue }
            vanished.append(id)
        }
        return vanished.sorted()
    }

    private mutating func zoneChangesDone(_ changes: [ZoneChanges], _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        for zoneChanges in changes {
            let zone = zoneChanges.zone
            context.log("fetchedRecordZoneChanges", [("zone", zone), ("modified", String(zoneChanges.changed.count)),
                                                      ("deleted", String(zoneChanges.deleted.count)), ("error", zoneChanges.error?.rawValue ?? "")])
            if let error = zoneChanges.error {
                switch error {
                case .changeTokenExpired:
                    state.zoneTokens[zone] = nil
                    if !state.zonesToFetch.contains(zone) { state.zonesToFetch.append(zone) }
                    fetchAgain = true
                case .zoneNotFound, .userDeletedZone:
                    zoneGone(zone, write: nil)
                    let reason: HostedZoneDeletion.Reason = error == .userDeletedZone ? .purged : .deleted
                    tell(.fetchedDatabaseChanges(modified: [], deleted: [HostedZoneDeletion(zone: zone, reason: reason)]), &app, &context)
                }
                stateDirty = true
                continue
            }
            tell(.willFetchRecordZoneChanges(zone: zone), &app, &context)
            if !heldForFetch.isEmpty {
                for server in zoneChanges.changed { heldForFetch[server.id] = nil }
                for deletion in zoneChanges.deleted { heldForFetch[deletion.id] = nil }
            }
            // Also a record the app shows its own unsent edits of with no save pending: its save
            // waits, withdrawn by the app for now (the rest of an atomic action one of whose
            // records waits for a fetch; records seed 563), and its keep of them is the same
            // decision as a pending save's.
            if !zoneChanges.changed.isEmpty && (!state.pendingRecordChanges.isEmpty || !conflictsUnanswered.isEmpty || !labels.unconfirmed.isEmpty) {
                let pending = Set(state.pendingRecordChanges)
                for server in zoneChanges.changed where pending.contains(.save(server.id)) || conflictsUnanswered.contains(server.id) || !labels.unconfirmed.isEmpty {
                    noteFetchedOverUnsentEdits(server)
                }
            }
            // The fetched names are listed here (the changed records before the deleted ones,
            // as the app is told), sharing the name `rememberServer` made.
            for server in zoneChanges.changed { fetchedNames.append(rememberServer(server).name) }
            mergeSameValues(&context)
            for deletion in zoneChanges.deleted {
                if hasUnsentSave(deletion.id) {
                    goneWithPendingSave(deletion.id, writes: unsentEdits(deletion.id), detail: "fetched deletion meets pending change", &context)
                }
                rememberGone(deletion.id, write: deletion.write, &context)
            }
            // Whole: asked with no token, or with one of an earlier incarnation of the zone (deleted and made again).
            let previous = state.zoneTokens[zone]
            let whole = previous == nil || previous?.incarnation != zoneChanges.token?.incarnation
            let vanished = whole ? vanishedRecords(zoneChanges) : []
            for id in vanished where hasUnsentSave(id) {
                goneWithPendingSave(id, writes: unsentEdits(id), detail: "record gone from the cloud", &context)
            }
            let deleted = zoneChanges.deleted.map(\.id) + vanished
            if !zoneChanges.changed.isEmpty || !deleted.isEmpty {
                for id in deleted { fetchedNames.append(id.itemName) }
                tell(.fetchedRecordZoneChanges(zone: zone, modified: zoneChanges.changed, deleted: deleted), &app, &context)
            }
            state.zoneTokens[zone] = zoneChanges.token
            // Only when listed: a removal of nothing would still copy the list the app holds.
            if state.zonesToFetch.contains(zone) {
                if state.zonesToFetch.count == 1 { state.zonesToFetch = [] } else { state.zonesToFetch.removeAll { $0 == zone } }
            }
            stateDirty = true
            tell(.didFetchRecordZoneChanges(zone: zone), &app, &context)
        }
        finishFetch(&app, &context)
    }
}
