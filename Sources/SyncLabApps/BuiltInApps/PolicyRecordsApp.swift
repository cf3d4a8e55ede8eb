/// A built-in records app (SPEC §9): a CKSyncEngine delegate with its own local database whose
/// conflict rule is `Policy` (`ServerWinsRecordsApp`, `ClientWinsRecordsApp`,
/// `MergeRecordsApp`). Written only against the public app API, as a careful team would write
/// it: it persists everything it holds (records, the user's unsent edits, the last server
/// version of each record, and every state serialization the engine gives), so a crash loses
/// nothing; it re-uploads an edited record the cloud lost (deleted elsewhere, its zone deleted
/// by an app); it drops a zone the user deleted in Settings and uploads nothing more into it;
/// and it drops its local data when the account signs out or changes.
public struct PolicyRecordsApp<Policy: RecordsConflictPolicy>: RecordsApp, Sendable {
    /// What the user sees: the last server version of each record with the user's edits on top.
    public private(set) var userSees = SyncRecordStore()
    /// Record → the fields the user edited that the cloud does not have yet.
    var unsent: [SyncRecord.ID: Set<String>] = [:]
    /// Record → field → when the user made its unsent edit, by this device's clock
    /// (`SyncEngine.now`): the `merge` policy takes the later of two edits of a field.
    var editedAt: [SyncRecord.ID: [String: Duration]] = [:]
    /// Records the user deleted, the delete not yet sent: a fetched version does not bring one
    /// back (deletes are unconditional, SPEC §4.3).
    var deleting: Set<SyncRecord.ID> = []
    /// The last version the cloud had of each record the user changed (an unsent edit or
    /// delete): the ancestor of a conflict. A record with neither shows the cloud's version, so
    /// a fetched one is stored once, in `userSees`, not here too (`cloudVersion(of:)`); an entry
    /// such a record still has is the same version.
    var lastServer: [SyncRecord.ID: SyncRecord] = [:]
    /// Records changed by a `saveRecords` action not yet sent, with the action's number: their
    /// batches are atomic by zone, and the action stands or falls whole (SPEC §4.3).
    var atomic: [SyncRecord.ID: Int] = [:]
    /// The number of the last `saveRecords` action.
    var atomicActions = 0
    /// Versions fetched while the user's delete of their record was out, not shown: whether the
    /// delete removed one, only the next fetch after the delete is done tells (`WaitingVersion`).
    var waiting: [SyncRecord.ID: WaitingVersion] = [:]
    /// Record → the copy last handed to the engine to save: a field the user has not changed
    /// since is in the cloud once the save is answered, whatever value the answer carries.
    var handedOut: [SyncRecord.ID: SyncRecord] = [:]
    /// Records of custom zones whose save met `serverRecordChanged`, with the server's version,
    /// not settled until a fetch shows the rest of what the cloud has (`HeldConflict`): settled at
    /// once, another device's atomic call would show in part. Their save, and the rest of their
    /// atomic action, wait with them.
    var held: [SyncRecord.ID: HeldConflict] = [:]
    /// Zones the user deleted in Settings: nothing more goes up into them until created again.
    var purged: Set<String> = []
    /// The last state serialization the engine gave.
    public private(set) var stateSerialization: SyncEngine.State.Serialization?

    /// The app at launch, from what it persisted (its whole value).
    public init(disk: Self?) {
        if let disk { self = disk }
    }

    /// The user's edit goes into the local database and becomes a pending change; a change into a
    /// zone the user deleted in Settings is refused (nothing more goes up there).
    public mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
        switch action {
        case .saveRecord(let edit):
            // A record has one pending save: one still to send for an atomic action carries the
            // action's fields with this edit, so it stays in the action, which goes whole
            // (records seed 558: taken out, it went alone and showed part of the action).
            save(edit, &syncEngine)
        case .deleteRecord(let id):
            atomic[id] = nil
            delete(id, &syncEngine)
        case .saveRecords(let saves, let deletes):
            let zones = Set(saves.map(\.recordID.zoneName) + deletes.map(\.zoneName))
            guard zones.isDisjoint(with: purged) else { return }
            atomicActions += 1
            for edit in saves {
                save(edit, &syncEngine)
                if edit.recordID.zoneName != "_defaultZone" { atomic[edit.recordID] = atomicActions }
            }
            for id in deletes where userSees[id] != nil {
                delete(id, &syncEngine)
                if id.zoneName != "_defaultZone" { atomic[id] = atomicActions }
            }
            // One of its records is held (its save waits, `save`): the action waits whole.
            if !held.isEmpty, saves.contains(where: { held[$0.recordID] != nil && atomic[$0.recordID] == atomicActions }) {
                pause(atomicActions, &syncEngine)
            }
        case .createZone(let zone):
            purged.remove(zone)
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
        case .deleteZone(let zone):
            drop(zone: zone, &syncEngine)
            syncEngine.state.add(pendingDatabaseChanges: [.deleteZone(zone)])
        }
    }

    /// Keeps every state serialization, applies what the cloud says (the policy decides
    /// conflicts), and re-adds what must go again.
    public mutating func handleEvent(_ happening: SyncEngine.Event, syncEngine: inout SyncEngine) {
        switch happening {
        case .stateUpdate(let serialization):
            stateSerialization = serialization
        case .accountChange(let change):
            guard change != .signIn else {
                // Records saved while signed out go up now (the engine's state began afresh).
                let waiting = unsent.keys.sorted()
                syncEngine.state.add(pendingRecordZoneChanges: waiting.map { .saveRecord($0) })
                // So do deletes of records this account's cloud had; a record made and deleted
                // while signed out never reached it: nothing to delete, and a version another
                // device made must not wait for a delete that never goes (records seed 526).
                deleting = deleting.filter { lastServer[$0] != nil }
                syncEngine.state.add(pendingRecordZoneChanges: deleting.sorted().map { .deleteRecord($0) })
                return
            }
            // Another account's data (or none) from now on: nothing of this one stays shown.
            let kept = stateSerialization
            self = Self(disk: nil)
            stateSerialization = kept
        case .fetchedDatabaseChanges(let fetched):
            for deletion in fetched.deletions {
                if deletion.reason == .deleted {
                    zoneDeletedElsewhere(deletion.zoneName, &syncEngine)
                } else {
                    purged.insert(deletion.zoneName)
                    drop(zone: deletion.zoneName, &syncEngine)
                }
            }
        case .sentDatabaseChanges(let sent):
            // This device's own zone deletion is done: what a fetch showed of the zone while the
            // deletion was out is gone with it (records seed 127), as for another device's.
            for zone in sent.deletedZones { zoneDeletedElsewhere(zone, &syncEngine) }
        case .willFetchChanges:
            // This fetch brings everything up to now: what waits for it shows when it ends.
            for id in waiting.keys where waiting[id]?.reason == .outlivedDelete { waiting[id]?.fetchBegun = true }
            for id in held.keys { held[id]?.fetchBegun = true }
        case .didFetchChanges:
            // (Sorted only when not empty: mostly nothing waits.)
            if !waiting.isEmpty { for id in waiting.keys.sorted() where waiting[id]?.fetchBegun == true { release(id) } }
            for id in (held.isEmpty ? [] : held.keys.sorted()) where held[id]?.zoneFetched == true {
                // No news of the record since the failure: the cloud's version is the one it showed.
                guard let version = held.removeValue(forKey: id) else { continue }
                met(version.server, &syncEngine)
                resume(id, &syncEngine)
            }
        case .didFetchRecordZoneChanges(let zone):
            for id in held.keys where id.zoneName == zone && held[id]?.fetchBegun == true { held[id]?.zoneFetched = true }
        case .fetchedRecordZoneChanges(let fetched):
            for server in fetched.modifications {
                // (Removing from an empty dictionary still hashes the id: mostly it is empty.)
                let wasHeld = !held.isEmpty && held.removeValue(forKey: server.recordID) != nil
                defer { if wasHeld { resume(server.recordID, &syncEngine) } }
                // Under a pending delete the delete stays; whether this version outlives it, only
                // the delete's answer and the next fetch tell (the cloud answers a re-sent delete
                // it had applied before the record was made again "deleted", with no word of the
                // new record). Otherwise the record is as the cloud has it now.
                // (Looked up only when not empty: a lookup hashes the id's two names even then.)
                if !deleting.isEmpty && deleting.contains(server.recordID) {
                    waiting[server.recordID] = WaitingVersion(server: server, reason: .fetchedWhileDeleting)
                } else if !waiting.isEmpty {
                    // (Removing from an empty dictionary still hashes the id: mostly it is empty.)
                    waiting[server.recordID] = nil
                }
                met(server, &syncEngine)
            }
            for id in fetched.deletions {
                waiting[id] = nil
                let wasHeld = held.removeValue(forKey: id) != nil
                // A record with an unsent edit goes up anew at once, shown afresh (no change tag):
                // kept with the deleted version's values until its save met the deletion, it
                // showed them beside the rest of an atomic call made before the delete (records
                // seed 1115). The engine re-uploads it at the fetch too.
                gone(id, &syncEngine)
                if wasHeld { resume(id, &syncEngine) }
            }
        case .sentRecordZoneChanges(let sent):
            for saved in sent.savedRecords { settled(saved) }
            for id in sent.deletedRecordIDs where unsent[id] == nil {
                deleting.remove(id)
                lastServer[id] = nil
                userSees[id] = nil
                atomic[id] = nil
                deleteDone(id)
            }
            for failure in sent.failedRecordSaves { failed(failure, &syncEngine) }
            // The rest of an atomic action one of whose records is held waits with it (the
            // others failed `batchRequestFailed` and were added again).
            for action in Set(held.keys.compactMap { atomic[$0] }).sorted() { pause(action, &syncEngine) }
            for failure in sent.failedRecordDeletes {
                switch failure.error.code {
                case .unknownItem, .zoneNotFound, .userDeletedZone:
                    lastServer[failure.recordID] = nil
                    deleting.remove(failure.recordID)
                    if failure.error.code == .unknownItem { deleteDone(failure.recordID) } else { waiting[failure.recordID] = nil }
                default:
                    // Unless its atomic action was withdrawn meanwhile.
                    guard deleting.contains(failure.recordID) else { continue }
                    syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(failure.recordID)])
                }
            }
        default:
            break
        }
    }

    /// The local copies of the records to save; atomic by zone when one came from a `saveRecords` action.
    public mutating func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        func action(_ change: SyncEngine.PendingRecordZoneChange) -> Int? {
            switch change {
            case .saveRecord(let id), .deleteRecord(let id): return atomic[id]
            }
        }
        let atomicByZone = context.pendingChanges.contains { action($0) != nil }
        var pending = context.pendingChanges
        if atomicByZone {
            // An atomic action goes whole: its changes the engine's batch limit left out of the
            // context join the batch, from the state (the cloud refuses it whole if it is too large).
            let actions = Set(pending.compactMap(action))
            let listed = Set(pending)
            pending += syncEngine.state.pendingRecordZoneChanges.filter { change in
                !listed.contains(change) && action(change).map(actions.contains) == true
            }
        }
        let batch = SyncEngine.RecordZoneChangeBatch(pendingChanges: pending, atomicByZone: atomicByZone) { userSees[$0] }
        for record in batch.recordsToSave { handedOut[record.recordID] = record }
        return batch
    }

    // MARK: The user's changes

    private mutating func save(_ edit: RecordEdit, _ syncEngine: inout SyncEngine) {
        let id = edit.recordID
        guard !purged.contains(id.zoneName) else { return }
        keepCloudVersion(id)
        let before = userSees[id]
        let after = edit.applied(to: before)
        // A save that changes nothing is no write (SPEC §4.3).
        let touched = Set(edit.fields.map(\.name)).filter { before?[$0] != after[$0] }
        guard before == nil || !touched.isEmpty else { return }
        deleting.remove(id)
        waiting[id] = nil
        userSees[id] = after
        unsent[id, default: []].formUnion(touched)
        for name in touched { editedAt[id, default: [:]][name] = syncEngine.now }
        // A record whose conflict is held waits with it: settled, the edits go on top of the
        // server's version (`met`). Sent now, it went as the copy from before the conflict, with
        // no change tag: a new record over whatever the cloud had meanwhile (records seed 849:
        // made again after another device's delete, with the existence that delete removed).
        guard held[id] == nil else { return }
        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }

    private mutating func delete(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        guard !purged.contains(id.zoneName), userSees[id] != nil else { return }
        keepCloudVersion(id)
        userSees[id] = nil
        setUnsent(id, [])
        deleting.insert(id)
        syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(id)])
    }

    // MARK: What the cloud says

    /// A server version meets the local copy: taken as it is when the user edited nothing
    /// there; otherwise the policy decides when the other side changed something this side
    /// holds another value of, and the edits stay on top of it when not.
    private mutating func met(_ server: SyncRecord, _ syncEngine: inout SyncEngine) {
        let id = server.recordID
        // Mostly the user changed nothing: no lookup in the empty maps (each hashes the id).
        let edited = unsent.isEmpty ? nil : unsent[id]
        if edited == nil, deleting.isEmpty || !deleting.contains(id) {
            // Nothing of the user's on it: the record shown is the cloud's version, stored once.
            if !lastServer.isEmpty { lastServer[id] = nil }
            userSees[id] = server
            return
        }
        let ancestor = lastServer.updateValue(server, forKey: id)
        guard !deleting.contains(id) else { return }
        guard let edited, let local = userSees[id] else {
            userSees[id] = server
            return
        }
        var otherSideChanged: Set<String> = []
        for name in Set(server.allKeys()).union(ancestor?.allKeys() ?? []) where server[name] != ancestor?[name] && server[name] != local[name] {
            otherSideChanged.insert(name)
        }
        let outcome = otherSideChanged.isEmpty
            ? Policy.server(server, withLocal: edited, of: local)
            : Policy.settle(local: local, edited: edited, editedAt: editedAt[id] ?? [:], server: server, ancestor: ancestor,
                            otherSideChanged: otherSideChanged)
        userSees[id] = outcome.record
        setUnsent(id, outcome.stillToSend)
        if outcome.stillToSend.isEmpty {
            // The policy dropped this part of an atomic action: the action goes whole, or (a
            // policy deciding field by field) the rest of it goes without this record's part.
            if !otherSideChanged.isEmpty, let action = atomic[id] {
                if Policy.withdrawsAtomicActionOnLoss { withdraw(action, &syncEngine) } else { resume(id, &syncEngine) }
            }
            atomic[id] = nil
            syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(id)])
        } else {
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        }
    }

    /// The cloud saved a record: it is the new base; edits made since it left stay on top. A
    /// re-sent save whose first try the cloud had applied (its answer lost) is answered with the
    /// record as it is now, other devices' later edits in it: the fields it carried are in the
    /// cloud and were overwritten since, so they are not sent again over those edits.
    private mutating func settled(_ saved: SyncRecord) {
        let id = saved.recordID
        lastServer[id] = saved
        let sent = handedOut.isEmpty ? nil : handedOut.removeValue(forKey: id)
        guard let local = userSees[id] else { return }
        let editedSince = (unsent[id] ?? []).filter { sent == nil || local[$0] != sent?[$0] }
        let outcome = Policy.server(saved, withLocal: editedSince, of: local)
        userSees[id] = outcome.record
        setUnsent(id, outcome.stillToSend)
        if unsent[id] == nil { atomic[id] = nil }
    }

    /// The record is gone from the cloud: an unsent edit brings it back as a new record (the
    /// edit wins, as Apple's sample does); otherwise it goes here too.
    private mutating func gone(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        lastServer[id] = nil
        waiting[id] = nil
        guard unsent[id] != nil, userSees[id] != nil else {
            userSees[id] = nil
            setUnsent(id, [])
            atomic[id] = nil
            return
        }
        uploadAnew(id, &syncEngine)
    }

    private mutating func failed(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine) {
        let id = failure.record.recordID
        handedOut[id] = nil
        switch failure.error.code {
        case .serverRecordChanged:
            guard let server = failure.error.serverRecord else { return }
            // In a custom zone, over an edit still to send: settled once a fetch shows the rest
            // of what the cloud has (`held`); the save waits (not added again). A version a
            // fetch showed already (its save crossed that fetch) has been shown whole.
            if id.zoneName != "_defaultZone", unsent[id] != nil, !deleting.contains(id),
               lastServer[id]?.recordChangeTag != server.recordChangeTag {
                held[id] = HeldConflict(server: server)
                return
            }
            met(server, &syncEngine)
        case .unknownItem:
            gone(id, &syncEngine)
        case .zoneNotFound:
            // The zone is gone (or never was): create it, and the record goes up as a new one.
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(id.zoneName)])
            if userSees[id] != nil { uploadAnew(id, &syncEngine) }
        case .userDeletedZone:
            purged.insert(id.zoneName)
            drop(zone: id.zoneName, &syncEngine)
        case .batchRequestFailed, .quotaExceeded:
            // Not applied, not refused for itself: it goes again (after the others' outcome, or
            // when space frees), unless its atomic action was withdrawn meanwhile.
            guard unsent[id] != nil else { return }
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        case .limitExceeded, .invalidArguments, .permissionFailure:
            // Refused for good: back to the cloud's version, the edit withdrawn, and with it the
            // rest of its atomic action, which stands or falls whole.
            let cloud = cloudVersion(of: id)
            if let action = atomic[id] { withdraw(action, &syncEngine) }
            userSees[id] = cloud
            setUnsent(id, [])
            atomic[id] = nil
        }
    }

    /// The last version the cloud had of `id` (nil: none, or the user made the record).
    private func cloudVersion(of id: SyncRecord.ID) -> SyncRecord? {
        if let kept = lastServer[id] { return kept }
        return unsent[id] == nil && !deleting.contains(id) ? userSees[id] : nil
    }

    /// Before the user's first unsent change of `id`: the cloud's version, shown until now, is
    /// kept in `lastServer` as the ancestor of what the user changes.
    private mutating func keepCloudVersion(_ id: SyncRecord.ID) {
        guard unsent[id] == nil, !deleting.contains(id), lastServer[id] == nil, let shown = userSees[id] else { return }
        lastServer[id] = shown
    }

    /// The fields of `id` still to send (none: the record has no unsent edit); the edit times of
    /// the others are forgotten.
    private mutating func setUnsent(_ id: SyncRecord.ID, _ fields: Set<String>) {
        guard !fields.isEmpty else {
            unsent[id] = nil
            editedAt[id] = nil
            return
        }
        unsent[id] = fields
        if let times = editedAt[id] { editedAt[id] = times.filter { fields.contains($0.key) } }
    }

    /// This device's delete of `id` is done: a version fetched while it was out waits for the
    /// next fetch, which brings the record's deletion when the delete removed that version.
    private mutating func deleteDone(_ id: SyncRecord.ID) {
        guard waiting[id]?.reason == .fetchedWhileDeleting else {
            waiting[id] = nil
            return
        }
        waiting[id]?.reason = .outlivedDelete
    }

    /// A fetch ended with no news of `id` since its delete was done: the version fetched while
    /// the delete was out was made after it, and shows.
    private mutating func release(_ id: SyncRecord.ID) {
        guard let version = waiting.removeValue(forKey: id) else { return }
        guard userSees[id] == nil, unsent[id] == nil, !deleting.contains(id) else { return }
        lastServer[id] = version.server
        userSees[id] = version.server
    }

    /// The pending changes of atomic action `action` wait: one of its records is held.
    private mutating func pause(_ action: Int, _ syncEngine: inout SyncEngine) {
        let ids = atomic.filter { $0.value == action }.map(\.key).sorted()
        syncEngine.state.remove(pendingRecordZoneChanges: ids.flatMap { [.saveRecord($0), .deleteRecord($0)] })
    }

    /// Held record `id` is settled: when none of its atomic action is held any more, the rest of
    /// the action goes again (what is still to send of it).
    private mutating func resume(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        guard let action = atomic[id] else { return }
        let ids = atomic.filter { $0.value == action }.map(\.key).sorted()
        guard !ids.contains(where: { held[$0] != nil }) else { return }
        for other in ids where other != id {
            if deleting.contains(other) {
                syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(other)])
            } else if unsent[other] != nil {
                syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(other)])
            }
        }
    }

    /// Withdraws what remains unsent of atomic action `action`: its records go back to the
    /// cloud's versions (those it created go), its changes are no longer pending.
    private mutating func withdraw(_ action: Int, _ syncEngine: inout SyncEngine) {
        let ids = atomic.filter { $0.value == action }.map(\.key).sorted()
        for id in ids {
            let cloud = cloudVersion(of: id)
            atomic[id] = nil
            setUnsent(id, [])
            deleting.remove(id)
            waiting[id] = nil
            held[id] = nil
            userSees[id] = cloud
            syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(id), .deleteRecord(id)])
        }
    }

    /// Uploads the local copy of `id` as a new record (no change tag), every field of it.
    private mutating func uploadAnew(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        guard let local = userSees[id] else { return }
        keepCloudVersion(id)
        var fresh = SyncRecord(recordType: local.recordType, recordID: id)
        for name in local.allKeys() { fresh[name] = local[name] }
        userSees[id] = fresh
        // Fields the user did not edit go up with the dates the cloud gave their values.
        for name in local.allKeys() where editedAt[id]?[name] == nil {
            if let date = local.modificationDate(forKey: name) { editedAt[id, default: [:]][name] = date }
        }
        unsent[id] = Set(local.allKeys())
        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }

    /// Another device deleted the zone: records with unsent edits go up again as new ones into
    /// the zone, created anew; the others go.
    private mutating func zoneDeletedElsewhere(_ zone: String, _ syncEngine: inout SyncEngine) {
        let keep = userSees.keys.filter { $0.zoneName == zone && unsent[$0] != nil }.sorted()
        for id in keep { lastServer[id] = nil }
        waiting = waiting.filter { $0.key.zoneName != zone }
        held = held.filter { $0.key.zoneName != zone }
        userSees.removeAll { $0.recordID.zoneName == zone && unsent[$0.recordID] == nil }
        for id in lastServer.keys.filter({ $0.zoneName == zone }) { lastServer[id] = nil }
        // The records the user deleted went with the zone: sent later, their deletes would
        // remove records made since in the zone created again (records seed 712).
        let deleted = deleting.filter { $0.zoneName == zone }.sorted()
        deleting.subtract(deleted)
        syncEngine.state.remove(pendingRecordZoneChanges: deleted.map { .deleteRecord($0) })
        guard !keep.isEmpty else { return }
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
        for id in keep { uploadAnew(id, &syncEngine) }
    }

    /// Forgets a zone: its records, edits, and pending changes.
    private mutating func drop(zone: String, _ syncEngine: inout SyncEngine) {
        userSees.removeAll { $0.recordID.zoneName == zone }
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { pending in
            switch pending {
            case .saveRecord(let id), .deleteRecord(let id): return id.zoneName == zone
            }
        }
        syncEngine.state.remove(pendingRecordZoneChanges: pending)
        for id in unsent.keys.filter({ $0.zoneName == zone }) { setUnsent(id, []) }
        deleting = deleting.filter { $0.zoneName != zone }
        waiting = waiting.filter { $0.key.zoneName != zone }
        held = held.filter { $0.key.zoneName != zone }
        for id in lastServer.keys.filter({ $0.zoneName == zone }) { lastServer[id] = nil }
        atomic = atomic.filter { $0.key.zoneName != zone }
        handedOut = handedOut.filter { $0.key.zoneName != zone }
    }
}
