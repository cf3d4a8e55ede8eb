import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// Starts a fetch cycle: database changes (private), then the changed zones' record changes,
    /// then (with a public subscription) a query of the public database.
    mutating func startFetch(_ context: inout EngineContext) {
        wantFetch = false
        // Emptied keeping its buffer: a fresh array grew again (one to three allocations) at
        // every fetch of every device.
        fetchedItems.removeAll(keepingCapacity: true)
        answeredDuringFetch = []
        zonesCreatedDuringFetch = []
        context.log("willFetchChanges", [])
        fetchPhase = .databaseChanges
        send(.fetchDatabaseChanges(database: .private, since: state.databaseToken), .databaseChanges, &context)
        fetchStartRequest = state.requestCounter
    }

    mutating func databaseChangesDone(_ changes: DatabaseChanges, _ context: inout EngineContext) {
        context.log("fetchedDatabaseChanges", [("changedZones", changes.changedZones.joined(separator: ",")),
                                                                       ("deletedZones", changes.deletedZones.map(\.zone).joined(separator: ","))])
        for deletion in changes.deletedZones {
            let key = ZoneKey(database: .private, zone: deletion.zone)
            if zonesCreatedDuringFetch.contains(key) {
                state.zones[key, default: LocalZone()].needsFetch = true
                continue
            }
            zoneDeletedRemotely(key, byUser: deletion.byUser, write: deletion.write, incarnation: deletion.incarnation, &context)
        }
        zonesCreatedDuringFetch = []
        for zone in changes.changedZones {
            let key = ZoneKey(database: .private, zone: zone)
            if state.zoneOperations.contains(where: { $0.zone == key && $0.kind != .create }) { continue }
            // Found once, not read and then written.
            updateZone(key, RecordEngine.markChanged)
        }
        state.databaseToken = changes.token
        // The zones to fetch in key order: one pass over the zones and a sort of those due (the
        // same order as sorting every key and keeping those), not three lookups per zone.
        var fetches: [ZoneFetch] = []
        for (key, local) in state.zones where key.database == .private && local.needsFetch && !local.userDeleted {
            fetches.append(ZoneFetch(zone: key.zone, token: local.token))
        }
        // In key order: every key here is of the private database, so by the zone's name as
        // `ZoneKey.<` orders it (nearly always there is one zone to fetch, and nothing to sort).
        if fetches.count > 1 { fetches.sort { $0.zone.utf8.lexicographicallyPrecedes($1.zone.utf8) } }
        if fetches.isEmpty {
            afterPrivateFetch(&context)
        } else {
            fetchPhase = .zoneChanges
            send(.fetchZoneChanges(database: .private, zones: fetches), .zoneChanges, &context)
        }
    }

    /// A zone the database changes list: it is on the server, and fetched in this cycle.
    private static func markChanged(_ local: inout LocalZone) {
        local.existsOnServer = true
        local.userDeleted = false
        local.needsFetch = true
    }

    mutating func zoneChangesDone(_ changes: [ZoneChanges], _ context: inout EngineContext) {
        for zoneChanges in changes {
            let zoneKey = ZoneKey(database: .private, zone: zoneChanges.zone)
            context.log("fetchedRecordZoneChanges", [("zone", zoneChanges.zone), ("modified", String(zoneChanges.changed.count)),
                                                                             ("deleted", String(zoneChanges.deleted.count)), ("error", zoneChanges.error?.rawValue ?? "")])
            if let error = zoneChanges.error {
                // The zone's creation by this device was answered while this request was on the
                // wire: a missing zone may be the answer from before it (mixed seed 17248: the
                // zone this device had deleted and made again, with a save in it acknowledged,
                // was dropped here and the device diverged). The zone is fetched again.
                if error != .changeTokenExpired && zonesCreatedDuringFetch.contains(zoneKey) {
                    state.zones[zoneKey, default: LocalZone()].needsFetch = true
                    fetchAgain = true
                    continue
                }
                switch error {
                case .changeTokenExpired:
                    state.zones[zoneKey]?.token = nil
                    state.zones[zoneKey]?.needsFetch = true
                    fetchAgain = true
                case .zoneNotFound:
                    zoneDeletedRemotely(zoneKey, byUser: false, write: nil, incarnation: nil, &context)
                case .userDeletedZone:
                    dropZone(zoneKey, write: nil, &context)
                }
                continue
            }
            guard let token = zoneChanges.token else { continue }
            let previous = RecordEngine.zone(zoneKey, in: state.zones)?.token
            let fromScratch = previous == nil || previous?.incarnation != token.incarnation
            // A token of another incarnation than the one this device knew (by its last token, or,
            // that token expired or reset, by the versions it has): the zone was deleted and made
            // again. Answers to requests sent before this speak of the deleted zone, as after a
            // deletion the device applies itself (records seed 43386: a save's zoneNotFound,
            // answered after this fetch, dropped the zone made again's record it brought).
            if fromScratch, let known = previous?.incarnation ?? knownIncarnation(of: zoneKey), known != token.incarnation {
                noteZoneDeleted(zoneKey)
            }
            let stale = applyZoneContents(zoneKey, zoneChanges.changed, zoneChanges.deleted, complete: fromScratch, &context)
            // A possibly stale answer: the zone is fetched again from the token it was asked
            // with, so the records left alone come again (as they are now).
            updateZone(zoneKey) { RecordEngine.markFetched(&$0, token: stale ? nil : token) }
        }
        answeredDuringFetch = []
        afterPrivateFetch(&context)
    }

    /// The newest incarnation of the zone this device has a server version of (nil: none).
    private func knownIncarnation(of zoneKey: ZoneKey) -> UInt64? {
        var known: UInt64?
        for key in state.table.serverKeys where key.zoneKey == zoneKey {
            if let incarnation = state.table[server: key]?.zoneIncarnation { known = max(known ?? 0, incarnation) }
        }
        return known
    }

    /// A zone fetched: its new token (nil: a stale answer, keep the one asked with, and fetch
    /// again).
    private static func markFetched(_ local: inout LocalZone, token: ZoneChangeToken?) {
        if let token { local.token = token }
        local.needsFetch = token == nil
        local.existsOnServer = true
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
        // They join the versions held for answers: one sharing a write with a version that still
        // waits for its zone's answers waits with it (records seed 8689: it showed without the
        // rest of its atomic call, held for an unrelated save in doubt).
        for key in (fetchAgain ? [] : state.heldUntilFetch.keys.sorted()) {
            let held = state.heldUntilFetch.removeValue(forKey: key)!
            guard (state.table[server: key]?.changeTag ?? 0) < held.changeTag else { continue }
            if let other = state.heldFetched[key], other.changeTag > held.changeTag { continue }
            state.heldFetched[key] = held
        }
        if !state.heldFetched.isEmpty || !state.heldDeletions.isEmpty { showHeldFetches(&context) }
        if !fetchAgain && !refusedVersions.isEmpty { resolveRefusalsNoFetchAnswered(&context) }
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

    /// Saves refused with `serverRecordChanged` before this fetch started, whose record it did not
    /// mention (`applyZoneContents` drops the refusals of the records a fetch brings, deletes or,
    /// from scratch, leaves out) nor hold: no fetch will bring that version, since the token is
    /// past it. Their conflicts are resolved against the refused version now, as CKSyncEngine's app
    /// does with the server record the error carries. This fetch brought everything else up to
    /// now in the same step, so an atomic call that version is part of shows whole.
    private mutating func resolveRefusalsNoFetchAnswered(_ context: inout EngineContext) {
        for key in refusedVersions.keys.sorted() {
            guard let refused = refusedVersions[key], refused.requestCounter < fetchStartRequest else { continue }
            refusedVersions[key] = nil
            // A save to resolve, or no change at all: a version whose save was taken back before
            // its refusal was read is shown (`handleItemError`).
            let resolvable: Bool
            switch state.pending[key]?.kind {
            case .save?: resolvable = state.pending[key]?.awaitingAnswer != true
            case nil: resolvable = true
            case .delete?: resolvable = false
            }
            guard resolvable,
                  refused.accountEpoch == accountEpoch, (zoneDeletedAt[key.zoneKey] ?? 0) == refused.zoneDeletions,
                  (state.table[server: key]?.changeTag ?? 0) < refused.server.changeTag,
                  state.heldFetched[key] == nil, state.heldUntilFetch[key] == nil, state.fetchedWhileCreating[key] == nil
            else { continue }
            context.log("conflictFromRefusal", [("record", key.itemName)])
            resolveConflict(key, refused.server, detail: "serverRecordChanged", &context)
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
        let held = writesOfDoubtfulRecords(zoneKey, changed, deleted)
        // The answer brings a version of a record whose save is in doubt: that version waits for
        // the answer, so the rest of the answer waits with it. Its versions are one snapshot of
        // the zone: shown without that record's, another record could show a call the waiting
        // version has and the record does not show yet, though they share no write — one that
        // replaced the call on the waiting record (records seed 20490: r1 showed E:3 while r0,
        // in doubt, waited with the version where C:2 had replaced E:3, and showed D:3's title).
        // So, too, when it brings the deletion of a record whose save is in doubt: that record
        // shows as before the deletion until the answer (`applyFetchedDeletion`), and the other
        // versions shown beside it could carry a call the deletion had removed from it (records
        // fixture seed 1115: r1 showed F's call while r0, deleted since by a delete that had seen
        // it, still showed r0's title from before the call).
        let snapshotInDoubt = !held.isEmpty && (changed.contains { record in
            state.pending[RecordKey(database: zoneKey.database, id: record.id)]?.awaitingAnswer == true
        } || deleted.contains { deletion in
            state.pending[RecordKey(database: zoneKey.database, id: deletion.id)]?.inDoubt != nil
        })
        // The writes of the records left alone: a record sharing one (the rest of an atomic call)
        // is left alone too, and comes again with them, so the call never shows in part.
        var stale: Set<WriteID> = []
        // Records are read in place by index: `for record in changed` copied each (its strings
        // and field dictionary retained and released), and the `where` of the first loop ran
        // after that copy.
        if !answeredDuringFetch.isEmpty {
            // Changed records by their index, deletions by the complement of theirs (`~index`).
            var others: [Int] = []
            for index in changed.indices {
                if answeredDuringFetch.contains(RecordKey(database: zoneKey.database, id: changed[index].id)) {
                    stale.formUnion(RecordEngine.writes(of: changed[index]))
                } else {
                    others.append(index)
                }
            }
            // A deletion left alone leaves alone the rest of its write: the other records its
            // cascade deleted, or the rest of its atomic call (records seed 7471: r1, deleted by
            // the cascade of B's delete of r0 — whose save this device had answered during the
            // fetch — showed gone while r0 still showed what that delete had removed).
            for index in deleted.indices {
                if answeredDuringFetch.contains(RecordKey(database: zoneKey.database, id: deleted[index].id)) {
                    stale.insert(deleted[index].write)
                } else {
                    others.append(~index)
                }
            }
            // Transitively: a record left alone for sharing one write leaves alone the records
            // sharing its other writes (records seed 13102: r0, left alone for sharing D:1 with
            // the answered r2, held back D:2, whose other record r1 showed without it).
            RecordEngine.absorbSharing(&stale, &others) { $0 >= 0 ? RecordEngine.writes(of: changed[$0]) : [deleted[~$0].write] }
        }
        // Through the array's buffer: reading `changed[index]` to pass it on (or binding it to a
        // name) copied the record, every string and its field dictionary retained, then released.
        changed.withUnsafeBufferPointer { records in
            for index in records.indices {
                let id = records[index].id
                // Only a complete answer needs the names (a set insert per record of every fetch).
                if complete { named.insert(id.name) }
                let key = RecordKey(database: zoneKey.database, id: id)
                // The fetch answers a refusal of this record: its version, not the refused one, counts.
                if !refusedVersions.isEmpty { refusedVersions[key] = nil }
                if (!answeredDuringFetch.isEmpty && answeredDuringFetch.contains(key)) || (!stale.isEmpty && RecordEngine.writes(of: records[index]).contains(where: stale.contains)) {
                    skipped = true
                    continue
                }
                // `held` first: nearly always empty, and the lookups after it are then not made.
                // A record whose own save's answer held a version for this fetch waits too: that
                // answer released nothing, and showing the fetched version would show the rest of
                // an atomic call without the member in doubt (records seed 11399).
                // A version newer than a deletion held for this record: it was made again since.
                if !state.heldDeletions.isEmpty { state.heldDeletions[key] = nil }
                if !held.isEmpty, state.pending[key]?.awaitingAnswer != true,
                   snapshotInDoubt || RecordEngine.writes(of: records[index]).contains(where: held.contains) {
                    state.heldFetched[key] = records[index]
                    context.log("fetchHeld", [("record", key.itemName)])
                    continue
                }
                if !state.heldFetched.isEmpty { state.heldFetched[key] = nil }
                applyFetched(key, records[index], &context)
            }
        }
        for deletion in deleted {
            if complete { named.insert(deletion.id.name) }
            let key = RecordKey(database: zoneKey.database, id: deletion.id)
            // Deleted since the refusal (records seed 7345: the refused version came back).
            if !refusedVersions.isEmpty { refusedVersions[key] = nil }
            if answeredDuringFetch.contains(key) || (!stale.isEmpty && stale.contains(deletion.write)) { skipped = true; continue }
            // A deletion by a write of a version that waits (the rest of an atomic call, or a
            // cascade beside it) waits with it, as a version would (records seed 7267), unless
            // this device has a change of the record pending: a deletion meeting an edit is
            // handled at once (the edit wins), or, for a change in doubt, by its answer. Only a
            // shared write holds a deletion: held for the snapshot alone, it stayed shown beside
            // a later call that saw it gone (records seed 312: B showed E's call, which deleted
            // r2 again, beside r2 as D's delete had found it).
            if !held.isEmpty, state.pending[key] == nil, held.contains(deletion.write) {
                state.heldFetched[key] = nil
                state.heldDeletions[key] = deletion.write
                context.log("fetchHeld", [("record", key.itemName)])
                continue
            }
            applyFetchedDeletion(key, write: deletion.write, &context)
        }
        defer {
            if skipped {
                context.log("staleFetchSkipped", [("zone", zoneKey.zone)])
                fetchAgain = true
            }
        }
        guard complete else { return skipped }
        // A record a complete answer leaves out is gone from the cloud: its refused version too.
        for key in refusedVersions.keys.sorted() where key.zoneKey == zoneKey && !named.contains(key.name) { refusedVersions[key] = nil }
        for key in state.table.localKeys.sorted() where key.zoneKey == zoneKey && !named.contains(key.name) {
            if answeredDuringFetch.contains(key) { skipped = true; continue }
            state.heldUntilFetch[key] = nil
            switch state.pending[key]?.kind {
            case .save?:
                // A save in doubt may have been applied before the record went (its deletion, or
                // its zone's, may have seen it): its answer tells (`deleted` when the cloud had
                // applied it), not this fetch (records seed 41164: re-uploaded as a new record, a
                // save the zone's deletion had removed came back beside that deletion's other
                // records gone).
                if state.table[server: key] != nil && state.pending[key]?.awaitingAnswer != true {
                    prepareReupload(key, asConflict: true, detail: "record gone from the cloud", &context)
                }
            case .delete?:
                state.pending[key] = nil
                state.table[server: key] = nil
            case nil:
                state.table[server: key] = nil
                removeLocal(key, write: nil, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
        return skipped
    }

    /// A fetched server version of a record.
    /// Takes the version (`consuming`): stored, it is moved into the table, where the caller's
    /// copy to pass it (from the answer, shared by many devices) was a second copy of every
    /// record each device applied, destroyed after the call (issue 13, session 11).
    mutating func applyFetched(_ key: RecordKey, _ server: consuming ServerRecord, _ context: inout EngineContext) {
        // A fetch answered after the app deleted the zone here: the queued zone delete removes
        // the record in the cloud too.
        if !state.zoneOperations.isEmpty && zoneDeleteQueued(key.zoneKey) { return }
        // One lookup for the tag check and the store below (nothing in between adds or removes
        // a slot).
        let place = state.table.place(of: key)
        // The version this device has already, or an older one: nothing to show. Change tags only
        // grow (every server write takes the next), and a version held while a save of the same
        // zone was in doubt can be released after that record's own later save was answered:
        // shown, it put back the value that save had replaced, which no fetch would bring again,
        // and the device diverged (records seed 31382).
        if let place, let tag = state.table.serverChangeTag(at: place), tag >= server.changeTag { return }
        // Whether the record has a pending change, found without copying it (`pending[key]`
        // copied the whole change, a save in doubt included, to compare it with nil).
        let pendingPlace = state.pending.isEmpty ? nil : state.pending.index(forKey: key)
        if let pendingPlace, state.pending.values[pendingPlace].awaitingAnswer {
            // This device's own save may be in this version already: only the re-sent save's
            // answer can tell. Until then the record waits whole (the base stays the one that
            // save was made on, so it is re-sent as it was), and so do the records sharing a
            // write with this version (`heldFetched`): showing its other fields beside the
            // pending ones, or the rest of its atomic call, would show another device's call in
            // part beside the value it replaced. The answer shows the cloud's version.
            state.fetchedWhileCreating[key] = server
        } else if pendingPlace != nil {
            state.fetchedWhileCreating[key] = nil
            resolveConflict(key, server, detail: "fetched change meets pending change", &context)
        } else {
            // The local copy first, at the place found above, then the version moved in: with no
            // change pending, `applyServer` does not read the stored version. A record new here
            // gets its slot from `applyServer` (the local copy), found again to store the version.
            let shown = applyServer(key, server, .fetch, at: place, &context)
            if let place { state.table[slotAt: place].server = server } else { state.table[server: key] = server }
            if shown { fetchedItems.append(key.itemName) }
        }
    }

    /// The writes of the fetched versions of this zone's records whose own save is in doubt:
    /// those versions wait for the retry's answer, so records sharing a write with them (the
    /// rest of an atomic call) wait too — and so, in turn, do records sharing a write with a
    /// record that waits (records seed 4865: a held record's other atomic call showed its other
    /// record without it).
    /// A version still waiting from before that this fetch does not bring again — one a save's
    /// answer held for the next fetch (`heldUntilFetch`), one fetched while its record's save is
    /// in doubt (`fetchedWhileCreating`), one held already (`heldFetched`) — holds likewise the
    /// records this fetch brings that share a write with it (records seed 8689: a later fetch
    /// brought the rest of its atomic call, which showed first). One this fetch brings again is
    /// superseded by it and holds nothing.
    /// A deletion of a record whose save is in doubt holds likewise the rest of its write: that
    /// save's answer tells whether the deletion had seen it (records seed 8831, below).
    private func writesOfDoubtfulRecords(_ zoneKey: ZoneKey, _ changed: [ServerRecord], _ deleted: [RecordDeletion]) -> Set<WriteID> {
        var writes: Set<WriteID> = []
        if !state.pending.isEmpty {
            for deletion in deleted where state.pending[RecordKey(database: zoneKey.database, id: deletion.id)]?.inDoubt != nil {
                writes.insert(deletion.write)
            }
        }
        if !state.heldUntilFetch.isEmpty || !state.fetchedWhileCreating.isEmpty || !state.heldFetched.isEmpty || !state.heldDeletions.isEmpty {
            let brought = Set(changed.map(\.id.name))
            for waiting in [state.heldUntilFetch, state.fetchedWhileCreating, state.heldFetched] {
                for (key, version) in waiting where key.zoneKey == zoneKey && !brought.contains(key.name) {
                    writes.formUnion(RecordEngine.writes(of: version))
                }
            }
            for (key, write) in state.heldDeletions where key.zoneKey == zoneKey && !brought.contains(key.name) { writes.insert(write) }
        }
        // Nothing pending and nothing waiting: no fetched record can be in doubt.
        if writes.isEmpty && state.pending.isEmpty { return writes }
        // Most fetches find nothing in doubt: the other records' writes (an array and a sort of
        // field names per record) are listed only when something is.
        var others: [Int] = []
        for index in changed.indices {
            let id = changed[index].id
            let key = RecordKey(database: zoneKey.database, id: id)
            // Whether the record has a pending change, found without copying it (`pending[key]`
        // copied the whole change, a save in doubt included, to compare it with nil).
        let pendingPlace = state.pending.isEmpty ? nil : state.pending.index(forKey: key)
        if let pendingPlace, state.pending.values[pendingPlace].awaitingAnswer { writes.formUnion(RecordEngine.writes(of: changed[index])) }
            else { others.append(index) }
        }
        guard !writes.isEmpty else { return writes }
        var othersWrites = others.map { RecordEngine.writes(of: changed[$0]) }
        RecordEngine.absorbSharing(&writes, &othersWrites) { $0 }
        return writes
    }

    /// Takes out of `elements` every one sharing a write with `writes`, adding its writes, until
    /// none is left that does (so transitively). Each pass takes at least one element or stops.
    static func absorbSharing<Element>(_ writes: inout Set<WriteID>, _ elements: inout [Element], _ writesOf: (Element) -> [WriteID]) {
        var grown = !writes.isEmpty
        while grown {
            grown = false
            elements.removeAll { element in
                let elementWrites = writesOf(element)
                guard elementWrites.contains(where: writes.contains) else { return false }
                writes.formUnion(elementWrites)
                grown = true
                return true
            }
        }
    }

    /// A version's writes: its existence's and its fields'.
    static func writes(of record: ServerRecord) -> [WriteID] {
        [record.existenceWrite] + record.fieldNames.compactMap { record.fields[$0]?.write }
    }

    /// Shows the held versions of every zone with no record in doubt any more (in key order).
    mutating func releaseHeldFetches(_ context: inout EngineContext) {
        guard !state.heldFetched.isEmpty || !state.heldDeletions.isEmpty else { return }
        showHeldFetches(&context)
        // Outside a fetch cycle nothing else will tell the app.
        if fetchPhase == .idle { notifyFetched(&context) }
    }

    /// Applies the held versions of every zone with no record in doubt, except those sharing a
    /// write with a version that waits for the next fetch (`heldUntilFetch`): the rest of that
    /// atomic call waits with it, and shows with it.
    /// A held version that stays holds, in turn, the held versions sharing a write with it
    /// (records seed 173: the rest of another call of a record that stayed showed alone).
    /// A held version of a zone with a version waiting for the next fetch waits too, though they
    /// share no write: both came in one fetch answer, a snapshot, and the waiting one may have
    /// been fetched again since, newer, with a later write that replaced on its record the call
    /// the held one carries (records seed 23842: r1 showed E's atomic call while r0 waited with
    /// E's later save over it and still showed the value the call had replaced).
    private mutating func showHeldFetches(_ context: inout EngineContext) {
        var waiting: Set<WriteID> = []
        var zonesWaiting: Set<ZoneKey> = []
        for (key, held) in state.heldUntilFetch {
            waiting.formUnion(RecordEngine.writes(of: held))
            zonesWaiting.insert(key.zoneKey)
        }
        // Held versions and held deletions (`deletion`), in key order.
        var candidates: [(key: RecordKey, writes: [WriteID], deletion: Bool)] = []
        let keys = Set(state.heldFetched.keys).union(state.heldDeletions.keys).sorted()
        for key in keys {
            let deletion = state.heldDeletions[key]
            let writes = deletion.map { [$0] } ?? RecordEngine.writes(of: state.heldFetched[key]!)
            let zoneInDoubt = zonesWaiting.contains(key.zoneKey)
                || state.pending.contains { $0.key.zoneKey == key.zoneKey && $0.value.awaitingAnswer }
            if zoneInDoubt { waiting.formUnion(writes) } else { candidates.append((key, writes, deletion != nil)) }
        }
        RecordEngine.absorbSharing(&waiting, &candidates) { $0.writes }
        for candidate in candidates {
            if candidate.deletion {
                let write = state.heldDeletions.removeValue(forKey: candidate.key)!
                applyFetchedDeletion(candidate.key, write: write, &context)
            } else {
                let record = state.heldFetched.removeValue(forKey: candidate.key)!
                applyFetched(candidate.key, record, &context)
            }
        }
    }

    /// One `fetched` notification listing the records shown since the last one, each once.
    mutating func notifyFetched(_ context: inout EngineContext) {
        guard !fetchedItems.isEmpty else { return }
        var unique: [String] = []
        unique.reserveCapacity(fetchedItems.count)
        for name in fetchedItems where !unique.contains(name) { unique.append(name) }
        context.emit(.notify(AppNotification(store: .records, reason: "fetched", items: unique)))
        fetchedItems.removeAll(keepingCapacity: true)
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
        if !state.heldDeletions.isEmpty { state.heldDeletions[key] = nil }
        switch state.pending[key]?.kind {
        case .save?:
            // A save in doubt may have been applied before the delete, which then saw it and
            // removed it on purpose: its answer tells (`deleted` when the cloud had applied it,
            // `unknownItem` when not: re-uploaded then), not this deletion, as for a complete
            // fetch (records seed 41164). Re-uploaded at once, it brought back what the delete
            // had seen (records seed 8831: A's merged title, applied and then deleted by B,
            // came back beside the rest of B's cascade gone).
            if state.pending[key]?.inDoubt != nil { return }
            if state.table[server: key] != nil { prepareReupload(key, asConflict: true, detail: "fetched deletion meets pending change", &context) }
        case .delete?:
            state.pending[key] = nil
            state.table[server: key] = nil
        case nil:
            state.table[server: key] = nil
            if state.table[local: key] != nil {
                removeLocal(key, write: write, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
    }

    /// A zone deleted in the cloud (`incarnation`: the one deleted, nil if the notice does not
    /// say). By the user: drop everything local (see `dropZone`). By an app: records go, except
    /// those with pending saves, which are uploaded again into a recreated zone (SPEC §4.3: no
    /// lost update, no resurrection). While a save of this device into the zone is in doubt the
    /// deletion waits for its answer (see `HeldZoneDeletion`).
    mutating func zoneDeletedRemotely(_ zoneKey: ZoneKey, byUser: Bool, write: WriteID?, incarnation: UInt64?, _ context: inout EngineContext) {
        if byUser {
            dropZone(zoneKey, write: write, &context)
            return
        }
        // Our own queued delete of this zone is already reflected locally.
        if state.zoneOperations.contains(where: { $0.zone == zoneKey && $0.kind != .create }) { return }
        if zoneHasSaveInDoubt(zoneKey) {
            let keys = state.table.serverKeys.filter { $0.zoneKey == zoneKey && state.table[local: $0] != nil }
            holdZoneDeletion(zoneKey, write: write, incarnation: incarnation, keys, &context)
            return
        }
        state.heldZoneDeletions[zoneKey] = nil
        let keys = state.table.localKeys.filter { $0.zoneKey == zoneKey }.sorted()
        applyZoneDeletion(zoneKey, keys, write: write, incarnation: incarnation, resetZone: true, &context)
    }

    /// Holds a zone deletion for these records (those with a server version) until no save into
    /// the zone is in doubt. Without an incarnation the zone is known to be gone now: every
    /// version this device has of it is of a deleted incarnation.
    private mutating func holdZoneDeletion(_ zoneKey: ZoneKey, write: WriteID?, incarnation: UInt64?, _ keys: [RecordKey],
                                           _ context: inout EngineContext) {
        var deleted = incarnation ?? state.zones[zoneKey]?.token?.incarnation ?? 0
        if incarnation == nil {
            for key in keys { deleted = max(deleted, state.table[server: key]?.zoneIncarnation ?? 0) }
        }
        var held = state.heldZoneDeletions[zoneKey] ?? HeldZoneDeletion(write: write, incarnation: deleted)
        if let write { held.write = write }
        held.incarnation = max(held.incarnation, deleted)
        held.records.formUnion(keys)
        state.heldZoneDeletions[zoneKey] = held
        context.log("zoneDeletionHeld", [("zone", zoneKey.zone)])
    }

    /// Whether a save of this device into the zone is in doubt (sent, its answer not come).
    private func zoneHasSaveInDoubt(_ zoneKey: ZoneKey) -> Bool {
        state.pending.contains { $0.key.zoneKey == zoneKey && $0.value.inDoubt != nil }
    }

    /// Applies the held zone deletions whose zone has no save in doubt any more, to the records
    /// of the deleted incarnation (records of a zone created again since stay). The zone's own
    /// state stays: it may be of a zone created again since (its token then tells a fetch to
    /// start from scratch, and a save into a missing zone creates it).
    mutating func applyHeldZoneDeletions(_ context: inout EngineContext) {
        guard !state.heldZoneDeletions.isEmpty else { return }
        for zoneKey in state.heldZoneDeletions.keys.sorted() where !zoneHasSaveInDoubt(zoneKey) {
            let held = state.heldZoneDeletions.removeValue(forKey: zoneKey)!
            context.log("zoneDeletionApplied", [("zone", zoneKey.zone)])
            var keys: [RecordKey] = []
            for key in state.table.localKeys.sorted() where key.zoneKey == zoneKey {
                if let server = state.table[server: key] {
                    if server.zoneIncarnation <= held.incarnation { keys.append(key) }
                } else if held.records.contains(key) {
                    keys.append(key)
                }
            }
            applyZoneDeletion(zoneKey, keys, write: held.write, incarnation: held.incarnation, resetZone: false, &context)
        }
        if fetchPhase == .idle { notifyFetched(&context) }
    }

    /// Removes these records of a deleted zone, except those with pending saves, which are
    /// uploaded again (into the zone created again). `incarnation`: the one deleted (nil: every
    /// one this device has). `resetZone`: the deletion is of the zone as this device knows it
    /// now (not held): its token and server copies go too.
    private mutating func applyZoneDeletion(_ zoneKey: ZoneKey, _ keys: [RecordKey], write: WriteID?, incarnation: UInt64?,
                                            resetZone: Bool, _ context: inout EngineContext) {
        noteZoneDeleted(zoneKey)
        var keepsPending = false
        for key in keys {
            if case .save? = state.pending[key]?.kind {
                prepareReupload(key, asConflict: false, detail: "zone deleted", &context)
                keepsPending = true
            } else {
                state.pending[key] = nil
                state.table[server: key] = nil
                removeLocal(key, write: write, .fetch, &context)
                fetchedItems.append(key.itemName)
            }
        }
        // Versions of the deleted incarnation fetched or held for an answer or for the next
        // fetch: shown after the deletion they brought its records back on this device alone
        // (mixed seed 4811; seed 7656: a creation refused afterwards rolled back to one). Those
        // of the zone created again since stay: a held deletion may apply after the fetch that
        // brought them, and no later fetch brings them again (records seed 4745).
        forgetFetchedVersions(zoneKey, upToIncarnation: incarnation)
        guard resetZone else {
            if keepsPending { enqueueZoneOperation(zoneKey, .create) }
            return
        }
        for key in state.pending.keys where key.zoneKey == zoneKey && state.table[local: key] == nil { state.pending[key] = nil }
        for key in state.table.serverKeys where key.zoneKey == zoneKey { state.table[server: key] = nil }
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
        // The zone went with the records this device had of it: they go here too, as a fetch
        // would tell (later, once the zone is created again). Kept, one edited since went up as a
        // new record of only the edited fields beside the deleted record's existence (records
        // seed 277: part of a write shown beside the value it had replaced).
        // (No save into the zone is in doubt any more: every pending one goes up anew above.)
        // Only the deleted zone's records, though: with another device's deletion of the zone
        // held for this answer, the device may have fetched since records of the zone created
        // again, which the cloud still has and no later fetch brings again (mixed seed 25957:
        // an answer slowed by `network.set` came after that fetch and removed them).
        let deleted = state.heldZoneDeletions[zoneKey]?.incarnation
        let gone = state.table.serverKeys.filter { key in
            key.zoneKey == zoneKey && state.pending[key] == nil
                && (state.table[server: key]?.zoneIncarnation ?? 0) <= (deleted ?? .max)
        }.sorted()
        for key in gone {
            state.table[server: key] = nil
            guard state.table[local: key] != nil else { continue }
            removeLocal(key, write: nil, .fetch, &context)
            fetchedItems.append(key.itemName)
        }
        // Versions of the zone answered or fetched and not shown yet (held for the next fetch,
        // fetched while a save was in doubt) are of the zone the cloud no longer has: they go
        // with it, as when a zone's deletion is applied. Kept, a save's answer held for the next
        // fetch was shown by the fetch of the zone made again, which no longer had that record:
        // the device showed it for good and diverged (records seed 26140). The zone's token is
        // gone, so that fetch starts from scratch and brings whatever the zone made again holds.
        forgetFetchedVersions(zoneKey, upToIncarnation: deleted)
        if fetchPhase == .idle { notifyFetched(&context) }
    }

    /// The user deleted the zone from Settings: the zone's local data goes (pending changes in it
    /// are discarded and reported), and nothing more is uploaded into it until the app creates it.
    mutating func dropZone(_ zoneKey: ZoneKey, write: WriteID?, _ context: inout EngineContext) {
        noteZoneDeleted(zoneKey)
        var names: [String] = []
        for key in state.table.localKeys.sorted() where key.zoneKey == zoneKey {
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
