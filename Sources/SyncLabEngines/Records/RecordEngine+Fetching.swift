import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// Starts a fetch cycle: database changes (private), then the changed zones' record changes,
    /// then (with a public subscription) a query of the public database.
    mutating func startFetch(_ context: inout EngineContext) {
        wantFetch = false
        fetchedItems = []
        answeredDuringFetch = []
        context.log("willFetchChanges", [])
        fetchPhase = .databaseChanges
        send(.fetchDatabaseChanges(database: .private, since: state.databaseToken), .databaseChanges, &context)
        fetchStartRequest = state.requestCounter
    }

    mutating func databaseChangesDone(_ changes: DatabaseChanges, _ context: inout EngineContext) {
        context.log("fetchedDatabaseChanges", [("changedZones", changes.changedZones.joined(separator: ",")),
                                                                       ("deletedZones", changes.deletedZones.map(\.zone).joined(separator: ","))])
        for deletion in changes.deletedZones {
            zoneDeletedRemotely(ZoneKey(database: .private, zone: deletion.zone), byUser: deletion.byUser, write: deletion.write, &context)
        }
        for zone in changes.changedZones {
            let key = ZoneKey(database: .private, zone: zone)
            if state.zoneOperations.contains(where: { $0.zone == key && $0.kind != .create }) { continue }
            var local = state.zones[key] ?? LocalZone()
            local.existsOnServer = true
            local.userDeleted = false
            local.needsFetch = true
            state.zones[key] = local
        }
        state.databaseToken = changes.token
        let fetches = state.zones.keys.sorted().filter { $0.database == .private && state.zones[$0]!.needsFetch && !state.zones[$0]!.userDeleted }
            .map { ZoneFetch(zone: $0.zone, token: state.zones[$0]!.token) }
        if fetches.isEmpty {
            afterPrivateFetch(&context)
        } else {
            fetchPhase = .zoneChanges
            send(.fetchZoneChanges(database: .private, zones: fetches), .zoneChanges, &context)
        }
    }

    mutating func zoneChangesDone(_ changes: [ZoneChanges], _ context: inout EngineContext) {
        for zoneChanges in changes {
            let zoneKey = ZoneKey(database: .private, zone: zoneChanges.zone)
            context.log("fetchedRecordZoneChanges", [("zone", zoneChanges.zone), ("modified", String(zoneChanges.changed.count)),
                                                                             ("deleted", String(zoneChanges.deleted.count)), ("error", zoneChanges.error?.rawValue ?? "")])
            if let error = zoneChanges.error {
                switch error {
                case .changeTokenExpired:
                    state.zones[zoneKey]?.token = nil
                    state.zones[zoneKey]?.needsFetch = true
                    fetchAgain = true
                case .zoneNotFound:
                    zoneDeletedRemotely(zoneKey, byUser: false, write: nil, &context)
                case .userDeletedZone:
                    dropZone(zoneKey, write: nil, &context)
                }
                continue
            }
            guard let token = zoneChanges.token else { continue }
            let previous = state.zones[zoneKey]?.token
            let fromScratch = previous == nil || previous?.incarnation != token.incarnation
            let stale = applyZoneContents(zoneKey, zoneChanges.changed, zoneChanges.deleted, complete: fromScratch, &context)
            var local = state.zones[zoneKey] ?? LocalZone()
            // A possibly stale answer: the zone is fetched again from the token it was asked
            // with, so the records left alone come again (as they are now).
            if !stale { local.token = token }
            local.needsFetch = stale
            local.existsOnServer = true
            state.zones[zoneKey] = local
        }
        answeredDuringFetch = []
        afterPrivateFetch(&context)
    }

    /// After the private database: the public database query, if the app subscribed to it or
    /// keeps records there.
    mutating func afterPrivateFetch(_ context: inout EngineContext) {
        if state.publicSubscribed || state.usesPublicDatabase {
            fetchPhase = .query
            send(.queryRecords(database: .public, zone: RecordID.defaultZone), .query, &context)
        } else {
            finishFetch(&context)
        }
    }

    mutating func queryDone(_ zone: String, _ records: [ServerRecord], _ deleted: [RecordDeletion], _ context: inout EngineContext) {
        context.log("fetchedRecordZoneChanges", [("zone", "public/\(zone)"), ("modified", String(records.count)), ("deleted", String(deleted.count)), ("error", "")])
        _ = applyZoneContents(ZoneKey(database: .public, zone: zone), records, deleted, complete: true, &context)
        answeredDuringFetch = []
        finishFetch(&context)
    }

    private mutating func finishFetch(_ context: inout EngineContext) {
        fetchPhase = .idle
        // Held versions show with a fetch that brought everything up to now: one that left
        // records alone (a stale answer) or started before the version came fetches again.
        for key in (fetchAgain ? [] : state.heldUntilFetch.keys.sorted()) {
            let held = state.heldUntilFetch.removeValue(forKey: key)!
            guard (state.serverRecords[key]?.changeTag ?? 0) < held.changeTag else { continue }
            applyFetched(key, held, &context)
        }
        if !state.heldFetched.isEmpty { showHeldFetches(&context) }
        context.log("didFetchChanges", [])
        notifyFetched(&context)
        if fetchAgain {
            fetchAgain = false
            wantFetch = true
        } else {
            // This fetch started after those conflicts: it brought their server versions.
            awaitingFetch = []
        }
    }

    /// Applies fetched records and deletions of one zone. `complete`: the answer lists every
    /// record of the zone (a fetch from scratch, or a query), so a local record it does not name
    /// is gone from the cloud.
    /// Records the cloud answered a save or delete for while this answer was on the wire are left
    /// alone (the answer may predate that change), and the engine fetches again.
    /// - Returns: whether any record was left alone so.
    private mutating func applyZoneContents(_ zoneKey: ZoneKey, _ changed: [ServerRecord], _ deleted: [RecordDeletion], complete: Bool, _ context: inout EngineContext) -> Bool {
        var named: Set<String> = []
        var skipped = false
        let held = writesOfDoubtfulRecords(zoneKey, changed)
        // The writes of the records left alone: a record sharing one (the rest of an atomic call)
        // is left alone too, and comes again with them, so the call never shows in part.
        var stale: Set<WriteID> = []
        for record in changed where answeredDuringFetch.contains(RecordKey(database: zoneKey.database, zone: record.id.zone, name: record.id.name)) {
            stale.formUnion(RecordEngine.writes(of: record))
        }
        for record in changed {
            // Only a complete answer needs the names (a set insert per record of every fetch).
            if complete { named.insert(record.id.name) }
            let key = RecordKey(database: zoneKey.database, zone: record.id.zone, name: record.id.name)
            if answeredDuringFetch.contains(key) || (!stale.isEmpty && RecordEngine.writes(of: record).contains(where: stale.contains)) {
                skipped = true
                continue
            }
            if state.pending[key]?.awaitingAnswer != true, !held.isEmpty, RecordEngine.writes(of: record).contains(where: held.contains) {
                state.heldFetched[key] = record
                context.log("fetchHeld", [("record", key.itemName)])
                continue
            }
            state.heldFetched[key] = nil
            applyFetched(key, record, &context)
        }
        for deletion in deleted {
            if complete { named.insert(deletion.id.name) }
            let key = RecordKey(database: zoneKey.database, zone: deletion.id.zone, name: deletion.id.name)
            if answeredDuringFetch.contains(key) { skipped = true; continue }
            applyFetchedDeletion(key, write: deletion.write, &context)
        }
        defer {
            if skipped {
                context.log("staleFetchSkipped", [("zone", zoneKey.zone)])
                fetchAgain = true
            }
        }
        guard complete else { return skipped }
        for key in state.records.keys.sorted() where key.zoneKey == zoneKey && !named.contains(key.name) {
            if answeredDuringFetch.contains(key) { skipped = true; continue }
            state.heldUntilFetch[key] = nil
            switch state.pending[key]?.kind {
            case .save?:
                if state.serverRecords[key] != nil { prepareReupload(key, asConflict: true, detail: "record gone from the cloud", &context) }
            case .delete?:
                state.pending[key] = nil
                state.serverRecords[key] = nil
            case nil:
                state.serverRecords[key] = nil
                removeLocal(key, write: nil, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
        return skipped
    }

    /// A fetched server version of a record.
    mutating func applyFetched(_ key: RecordKey, _ server: ServerRecord, _ context: inout EngineContext) {
        // A fetch answered after the app deleted the zone here: the queued zone delete removes
        // the record in the cloud too.
        if zoneDeleteQueued(key.zoneKey) { return }
        if state.serverRecords[key]?.changeTag == server.changeTag { return }
        if state.pending[key]?.awaitingAnswer == true {
            // This device's own save may be in this version already: only the re-sent save's
            // answer can tell. Until then the record waits whole (the base stays the one that
            // save was made on, so it is re-sent as it was), and so do the records sharing a
            // write with this version (`heldFetched`): showing its other fields beside the
            // pending ones, or the rest of its atomic call, would show another device's call in
            // part beside the value it replaced. The answer shows the cloud's version.
            state.fetchedWhileCreating[key] = server
        } else if state.pending[key] != nil {
            state.fetchedWhileCreating[key] = nil
            resolveConflict(key, server, detail: "fetched change meets pending change", &context)
        } else {
            state.serverRecords[key] = server
            if applyServer(key, server, .fetch, &context) { fetchedItems.append(key.itemName) }
        }
    }

    /// The writes of the fetched versions of this zone's records whose own save is in doubt:
    /// those versions wait for the retry's answer, so records sharing a write with them (the
    /// rest of an atomic call) wait too.
    private func writesOfDoubtfulRecords(_ zoneKey: ZoneKey, _ changed: [ServerRecord]) -> Set<WriteID> {
        var writes: Set<WriteID> = []
        for record in changed {
            let key = RecordKey(database: zoneKey.database, zone: record.id.zone, name: record.id.name)
            if state.pending[key]?.awaitingAnswer == true { writes.formUnion(RecordEngine.writes(of: record)) }
        }
        return writes
    }

    /// A version's writes: its existence's and its fields'.
    static func writes(of record: ServerRecord) -> [WriteID] {
        [record.existenceWrite] + record.fieldNames.compactMap { record.fields[$0]?.write }
    }

    /// Shows the held versions of every zone with no record in doubt any more (in key order).
    mutating func releaseHeldFetches(_ context: inout EngineContext) {
        guard !state.heldFetched.isEmpty else { return }
        showHeldFetches(&context)
        // Outside a fetch cycle nothing else will tell the app.
        if fetchPhase == .idle { notifyFetched(&context) }
    }

    /// Applies the held versions of every zone with no record in doubt, except those sharing a
    /// write with a version that waits for the next fetch (`heldUntilFetch`): the rest of that
    /// atomic call waits with it, and shows with it.
    private mutating func showHeldFetches(_ context: inout EngineContext) {
        var waiting: Set<WriteID> = []
        for held in state.heldUntilFetch.values { waiting.formUnion(RecordEngine.writes(of: held)) }
        for key in state.heldFetched.keys.sorted() {
            let zoneInDoubt = state.pending.contains { $0.key.zoneKey == key.zoneKey && $0.value.awaitingAnswer }
            guard !zoneInDoubt, let record = state.heldFetched[key] else { continue }
            if !waiting.isEmpty && RecordEngine.writes(of: record).contains(where: waiting.contains) { continue }
            state.heldFetched[key] = nil
            applyFetched(key, record, &context)
        }
    }

    /// One `fetched` notification listing the records shown since the last one, each once.
    private mutating func notifyFetched(_ context: inout EngineContext) {
        guard !fetchedItems.isEmpty else { return }
        var unique: [String] = []
        for name in fetchedItems where !unique.contains(name) { unique.append(name) }
        context.emit(.notify(AppNotification(store: .records, reason: "fetched", items: unique)))
        fetchedItems = []
    }

    /// The app deleted this zone on the device and the delete has not been answered yet.
    func zoneDeleteQueued(_ zone: ZoneKey) -> Bool {
        state.zoneOperations.contains { operation in
            if case .delete = operation.kind { return operation.zone == zone }
            return false
        }
    }

    /// A fetched deletion (or a cascade the cloud reports).
    mutating func applyFetchedDeletion(_ key: RecordKey, write: WriteID, _ context: inout EngineContext) {
        state.fetchedWhileCreating[key] = nil
        // A version held for a later fetch predates this deletion: it must not bring the record
        // back (mixed seed 1423).
        state.heldUntilFetch[key] = nil
        state.heldFetched[key] = nil
        switch state.pending[key]?.kind {
        case .save?:
            if state.serverRecords[key] != nil { prepareReupload(key, asConflict: true, detail: "fetched deletion meets pending change", &context) }
        case .delete?:
            state.pending[key] = nil
            state.serverRecords[key] = nil
        case nil:
            state.serverRecords[key] = nil
            if state.records[key] != nil {
                removeLocal(key, write: write, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
    }

    /// A zone deleted in the cloud. By the user: drop everything local (see `dropZone`). By an
    /// app: records go, except those with pending saves, which are uploaded again into a
    /// recreated zone (SPEC §4.3: no lost update, no resurrection).
    mutating func zoneDeletedRemotely(_ zoneKey: ZoneKey, byUser: Bool, write: WriteID?, _ context: inout EngineContext) {
        if byUser {
            dropZone(zoneKey, write: write, &context)
            return
        }
        // Our own queued delete of this zone is already reflected locally.
        if state.zoneOperations.contains(where: { $0.zone == zoneKey && $0.kind != .create }) { return }
        var keepsPending = false
        for key in state.records.keys.sorted() where key.zoneKey == zoneKey {
            if case .save? = state.pending[key]?.kind {
                prepareReupload(key, asConflict: false, detail: "zone deleted", &context)
                keepsPending = true
            } else {
                state.pending[key] = nil
                state.serverRecords[key] = nil
                removeLocal(key, write: write, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
        for key in state.pending.keys where key.zoneKey == zoneKey && state.records[key] == nil { state.pending[key] = nil }
        for key in state.serverRecords.keys where key.zoneKey == zoneKey { state.serverRecords[key] = nil }
        if keepsPending {
            var local = state.zones[zoneKey] ?? LocalZone()
            local.existsOnServer = false
            local.token = nil
            local.needsFetch = false
            state.zones[zoneKey] = local
            enqueueZoneOperation(zoneKey, .create)
        } else {
            state.zones[zoneKey] = nil
        }
    }

    /// `zoneNotFound` on a save: the zone is recreated and its pending records are uploaded again.
    mutating func zoneMissing(_ zoneKey: ZoneKey, _ context: inout EngineContext) {
        guard state.zones[zoneKey]?.userDeleted != true else { return }
        var local = state.zones[zoneKey] ?? LocalZone()
        local.existsOnServer = false
        local.token = nil
        state.zones[zoneKey] = local
        enqueueZoneOperation(zoneKey, .create)
        for key in orderedPendingKeys() where key.zoneKey == zoneKey {
            prepareReupload(key, asConflict: false, detail: "zoneNotFound", &context)
        }
        for key in state.serverRecords.keys where key.zoneKey == zoneKey && state.pending[key] == nil { state.serverRecords[key] = nil }
    }

    /// The user deleted the zone from Settings: the zone's local data goes (pending changes in it
    /// are discarded and reported), and nothing more is uploaded into it until the app creates it.
    mutating func dropZone(_ zoneKey: ZoneKey, write: WriteID?, _ context: inout EngineContext) {
        var names: [String] = []
        for key in state.records.keys.sorted() where key.zoneKey == zoneKey {
            if case .save? = state.pending[key]?.kind {
                for (pendingWrite, pendingItem) in pendingWrites(of: key) {
                    context.observe(.discarded(write: pendingWrite, item: pendingItem, reason: "zone deleted by the user"))
                }
            }
            removeLocal(key, write: write, .reset, &context)
            names.append(key.itemName)
        }
        forgetZoneRecords(zoneKey)
        state.zoneOperations.removeAll { $0.zone == zoneKey && $0.kind == .create }
        var local = state.zones[zoneKey] ?? LocalZone()
        local.existsOnServer = false
        local.userDeleted = true
        local.token = nil
        local.needsFetch = false
        state.zones[zoneKey] = local
        context.log("userDeletedZone", [("zone", zoneKey.zone)])
        context.emit(.notify(AppNotification(store: .records, reason: "error", items: names.isEmpty ? [zoneKey.zone] : names)))
    }
}
