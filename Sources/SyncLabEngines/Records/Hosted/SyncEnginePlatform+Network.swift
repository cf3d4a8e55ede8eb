import SyncLabKernel
import SyncLabProtocol

extension SyncEnginePlatform {
    var wantsSubscription: Bool {
        guard let account else { return false }
        return !state.subscribedAccounts.contains(account)
    }

    /// Starts whatever can start now: the subscription, a fetch, the next send.
    mutating func pump(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        guard online, account != nil, !retryArmed else { return }
        if !subscribing && wantsSubscription {
            subscribing = true
            send(.createSubscription(database: .private), .subscribe, &context)
            subscribeRequest = requestCounter
        }
        if wantFetch {
            if fetching { fetchAgain = true; wantFetch = false } else { startFetch(&app, &context) }
        }
        if !sending { sendNext(&app, &context) }
    }

    mutating func send(_ request: RecordRequest, _ kind: Request, _ context: inout EngineContext) {
        requestCounter += 1
        inFlight[requestCounter] = (kind, accountEpoch)
        context.emit(.send(requestID: requestCounter, .records(request)))
    }

    mutating func armRetry(after delay: SimDuration, _ context: inout EngineContext) {
        retryArmed = true
        context.emit(.setTimer(SyncEnginePlatform.retryTimer, after: delay))
    }

    /// A failed request: try again after the backoff, never before the cloud's `retryAfter`.
    /// Each failure re-arms the timer from now, as the built-in engine does: a second failure
    /// answered while the first one's timer runs (a fetch and a subscription both refused in an
    /// outage) waits its own delay, not what is left of the first.
    mutating func scheduleRetry(retryAfter after: SimDuration?, reason: String, _ context: inout EngineContext) {
        retryAfter.note(after, now: context.now)
        let delay = backoff.nextDelay(retryAfter: after)
        context.log("retryScheduled", [("reason", reason), ("after_us", String(delay.microseconds))])
        armRetry(after: delay, &context)
    }

    /// Sends the next batch: zone changes first, then the records the app gives for the first
    /// pending changes (`nextRecordZoneChangeBatch`), within the batch and byte limits.
    mutating func sendNext(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        if !labels.settingsDeletes.isEmpty {
            sending = true
            send(.modifyZones(database: .private, saves: [], deletes: labels.settingsDeletes), .settingsDeletes(labels.settingsDeletes), &context)
            return
        }
        if !state.pendingZoneChanges.isEmpty {
            let changes = state.pendingZoneChanges
            var saves: [String] = [], deletes: [ZoneDeletion] = []
            for change in changes {
                switch change {
                case .save(let zone): saves.append(zone)
                case .delete(let zone):
                    // The user's `zone.delete` through the app; a delete the app decided on its own is its own write.
                    let write = labels.zoneDeletes[zone] ?? context.nextDerivedWrite(on: identity.device)
                    deletes.append(ZoneDeletion(zone: zone, byUser: false, write: write))
                }
            }
            beginSending(&app, &context)
            sending = true
            send(.modifyZones(database: .private, saves: saves, deletes: deletes), .zones(changes), &context)
            return
        }
        guard !state.pendingRecordChanges.isEmpty, !sendBlocked else {
            endSending(&app, &context)
            return
        }
        beginSending(&app, &context)
        let candidates = Array(state.pendingRecordChanges.prefix(batchCap))
        var answer: (saves: [HostedRecord], deletes: [RecordID], atomicByZone: Bool) = ([], [], false)
        callApp(&app, &context) { app, state in answer = app.nextBatch(candidates, state: &state) }
        // In pending order, whatever order the app built its batch in (a batch built from a
        // dictionary must not make the run depend on hash order).
        var position: [RecordID: Int] = [:]
        for (index, change) in candidates.enumerated() where position[change.id] == nil { position[change.id] = index }
        answer.saves.sort { (position[$0.id] ?? .max, $0.id) < (position[$1.id] ?? .max, $1.id) }
        answer.deletes.sort { (position[$0] ?? .max, $0) < (position[$1] ?? .max, $1) }
        // Atomic by zone: one request per zone, all or nothing (custom zones; the default zone
        // has no atomic batches). The zone of the first change that goes goes first.
        var atomicZone: String?
        if answer.atomicByZone {
            let first = [answer.saves.first.map { (position[$0.id] ?? .max, $0.id) }, answer.deletes.first.map { (position[$0] ?? .max, $0) }]
                .compactMap { $0 }.min { $0 < $1 }
            if let zone = first?.1.zone, zone != RecordID.defaultZone {
                atomicZone = zone
                answer.saves.removeAll { $0.id.zone != zone }
                answer.deletes.removeAll { $0.zone != zone }
            }
        }
        var saves: [RecordSave] = [], deletes: [RecordDeletion] = []
        var bytes = 0
        var taken: Set<RecordID> = []
        // Sets, not list scans: a batch of hundreds against thousands pending stays linear.
        // An atomic zone group goes whole in one request, whatever the batch and byte limits:
        // the app may add the pending changes of its atomic action that the first `batchCap`
        // left out (a delegate builds its batch from the state), and the cloud refuses the
        // request whole if it is over a limit (`limitExceeded`), as it does the built-in
        // engine's. Split, another device would see part of the action.
        let offered = atomicZone == nil ? Set(candidates).intersection(state.pendingRecordChanges) : Set(state.pendingRecordChanges)
        for record in answer.saves where offered.contains(.save(record.id)) && !taken.contains(record.id) {
            let save = recordSave(record, &context)
            if atomicZone == nil && (saves.count + deletes.count >= batchCap || (!saves.isEmpty && bytes + save.sizeBytes > bytesCap)) { break }
            bytes += save.sizeBytes
            saves.append(save)
            taken.insert(record.id)
        }
        for id in answer.deletes where offered.contains(.delete(id)) && !taken.contains(id) {
            if atomicZone == nil && saves.count + deletes.count >= batchCap { break }
            let write = label(item(id), .absent, mint: true, &context).write!
            deletes.append(RecordDeletion(id: id, write: write))
            taken.insert(id)
        }
        guard !saves.isEmpty || !deletes.isEmpty else {
            // The app gave nothing to send: wait until the state changes.
            sendBlocked = true
            context.log("batchEmpty", [("pending", String(state.pendingRecordChanges.count))])
            endSending(&app, &context)
            return
        }
        sending = true
        context.log("sendingBatch", [("saves", String(saves.count)), ("deletes", String(deletes.count)), ("atomic", String(atomicZone != nil))])
        for change in readded where taken.contains(change.id) { readded.remove(change) }
        let modify = RecordModify(database: .private, saves: saves, deletes: deletes, atomic: atomicZone != nil, savePolicy: identity.settings.records.savePolicy)
        send(.modifyRecords(modify), .records(saves: saves, deletes: deletes), &context)
        atomicSend = atomicZone == nil ? nil : requestCounter
    }

    /// The record the app gave, with the write behind each field (SPEC §9).
    ///
    /// A record sent as new (no change tag) after the app was shown its deletion comes back by a
    /// write made after the delete, as the built-in engine re-uploads it: the existence and the
    /// fields the cloud had before are re-stamped with one write of the device's own, built on
    /// them and on the app's edits (the edit wins; no resurrection).
    mutating func recordSave(_ record: HostedRecord, _ context: inout EngineContext) -> RecordSave {
        if !record.refusedFields.isEmpty {
            // Not lost silently: the app holds values no CloudKit field can hold.
            context.log("fieldsNotSent", [("record", record.id.itemName), ("fields", record.refusedFields.joined(separator: ","))])
        }
        if !conflictsUnanswered.isEmpty { conflictsUnanswered.remove(record.id) }
        let existenceKey = item(record.id)
        if record.changeTag == nil, labels.goneInCloud.remove(existenceKey) != nil {
            restampReupload(record, &context)
        } else if record.changeTag == nil, let latest = labels.latestShown(existenceKey), latest.value == .absent, latest.write != nil {
            restampReupload(record, &context)
        }
        var fields: [String: StoredField] = [:]
        for name in record.fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let value = record.fields[name]!
            let labeled = label(item(record.id, field: name), .field(value), &context)
            fields[name] = StoredField(value: value, write: labeled.write!, modifiedAt: labeled.modifiedAt)
        }
        for name in record.removedFields.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where record.fields[name] == nil {
            let labeled = label(item(record.id, field: name), .absent, mint: true, &context)
            fields[name] = StoredField(value: nil, write: labeled.write!, modifiedAt: labeled.modifiedAt)
        }
        // A record sent as new (no change tag) is this device's creation: not another device's
        // creation of that name the cloud showed the app since (a `serverRecordChanged` it holds:
        // the cloud may have deleted that one by now, and it would come back; records seed 143).
        let existenceValue = ItemValue.recordExists(type: record.type)
        let existence: WriteID
        if record.changeTag == nil, labels.latestShown(existenceKey)?.fromCloud == true,
           let own = RecordLabels.known(in: labels.entry(existenceKey), existenceValue, ownOnly: true)?.write {
            existence = own
        } else {
            existence = label(existenceKey, existenceValue, &context).write!
        }
        return RecordSave(id: record.id, type: record.type, fields: fields, baseTag: record.changeTag, existenceWrite: existence)
    }

    /// See `recordSave`: the re-stamp of a record re-uploaded after a delete.
    mutating func restampReupload(_ record: HostedRecord, _ context: inout EngineContext) {
        var old: [(ItemKey, ItemValue, WriteID)] = [], edits: [WriteID] = []
        for name in record.fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let key = item(record.id, field: name)
            let value = ItemValue.field(record.fields[name]!)
            guard let known = labels.known(key, value), let write = known.write else { continue }
            if known.fromCloud { old.append((key, value, write)) } else { edits.append(write) }
        }
        let existenceKey = item(record.id)
        let existence = ItemValue.recordExists(type: record.type)
        let existenceWrite = labels.entry(existenceKey)?.lastShown { $0.value == existence }?.write
        let restamp = context.nextDerivedWrite(on: identity.device)
        let why = "re-upload after a delete"
        for (key, value, write) in old {
            context.observe(.derivedWrite(write: restamp, item: key, value: value, parents: ([write] + edits).sortedUnique(), why: why))
            labels.remember(key, value, restamp, at: context.now)
        }
        context.observe(.derivedWrite(write: restamp, item: existenceKey, value: existence, parents: ((existenceWrite.map { [$0] } ?? []) + edits).sortedUnique(), why: why))
        labels.remember(existenceKey, existence, restamp, at: context.now)
    }

    private mutating func beginSending(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        guard !sentSinceIdle else { return }
        sentSinceIdle = true
        tell(.willSendChanges, &app, &context)
    }

    private mutating func endSending(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        guard sentSinceIdle else { return }
        sentSinceIdle = false
        tell(.didSendChanges, &app, &context)
    }

    /// Starts a fetch cycle: database changes, then the changed zones' record changes.
    mutating func startFetch(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        wantFetch = false
        fetching = true
        if !fetchedNames.isEmpty { fetchedNames.removeAll(keepingCapacity: true) }
        if !heldAfterDelete.isEmpty {
            heldForFetch.merge(heldAfterDelete) { $1 }
            heldAfterDelete = [:]
        }
        tell(.willFetchChanges, &app, &context)
        // Logged as the built-in engine logs its fetch cycles (the traces read the same).
        context.log("willFetchChanges", [])
        send(.fetchDatabaseChanges(database: .private, since: state.databaseToken), .databaseChanges, &context)
        fetchStartRequest = requestCounter
    }

    mutating func finishFetch(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        fetching = false
        deliverHeld(&app, &context)
        tell(.didFetchChanges, &app, &context)
        context.log("didFetchChanges", [])
        // The notifications the built-in engine gives its app, so `expect.notifications` and the
        // counts read the same for a hosted app: here, the records the app was told were fetched.
        if !fetchedNames.isEmpty {
            // First occurrences, in order: a scan for a few names, a set for many (no quadratic scan).
            var unique: [String] = []
            if fetchedNames.count <= 16 {
                for name in fetchedNames where !unique.contains(name) { unique.append(name) }
            } else {
                var seen: Set<String> = []
                for name in fetchedNames where seen.insert(name).inserted { unique.append(name) }
            }
            // Emptied in place: the next fetch cycle lists its names in the same buffer.
            fetchedNames.removeAll(keepingCapacity: true)
            context.emit(.notify(AppNotification(store: .records, reason: "fetched", items: unique)))
        }
        if fetchAgain {
            fetchAgain = false
            wantFetch = true
        }
    }
}
