import SyncLab

/// A to-do app's CKSyncEngine delegate, shaped after Apple's sample (`SyncedDatabase`):
/// the user's edits go into the local store and become pending changes; fetched records
/// replace local ones unless edited here; on `serverRecordChanged` the local edit is put on top
/// of the server's record and sent again; a zone the user purged is dropped; signing out
/// drops everything.
public struct TodoSyncDelegate: RecordsApp {
    public var store: TodoStore

    public init(disk: TodoStore?) { store = disk ?? TodoStore() }
    public var disk: TodoStore { store }
    public var stateSerialization: SyncEngine.State.Serialization? { store.syncState }

    public mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
        switch action {
        case .saveRecord(let edit):
            var item = store.items[edit.recordID] ?? TodoItem(lastKnownRecord: nil, needsUpload: true)
            var record = SyncRecord(recordType: "Todo", recordID: edit.recordID)
            item.populate(&record)
            edit.apply(to: &record)
            let known = item.lastKnownRecord
            item.take(record)
            item.lastKnownRecord = known
            item.needsUpload = true
            store.items[edit.recordID] = item
            createZoneIfNeeded(edit.recordID.zoneName, &syncEngine)
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(edit.recordID)])
        case .deleteRecord(let id):
            store.items[id] = nil
            syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(id)])
        case .saveRecords(let edits, let deletes):
            // One action of the user's: each edit as its own, then the deletes.
            for edit in edits { userDid(.saveRecord(edit), syncEngine: &syncEngine) }
            for id in deletes { userDid(.deleteRecord(id), syncEngine: &syncEngine) }
        case .createZone(let zone):
            createZoneIfNeeded(zone, &syncEngine)
        case .deleteZone(let zone):
            dropZone(zone)
            syncEngine.state.add(pendingDatabaseChanges: [.deleteZone(zone)])
        }
    }

    public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
        switch event {
        case .stateUpdate(let state):
            store.syncState = state
        case .accountChange(let change):
            if change != .signIn { store = TodoStore() }
        case .fetchedDatabaseChanges(let changes):
            for deletion in changes.deletions { dropZone(deletion.zoneName) }
        case .fetchedRecordZoneChanges(let changes):
            for record in changes.modifications { merge(record) }
            for id in changes.deletions where store.items[id]?.needsUpload != true { store.items[id] = nil }
        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords {
                guard var item = store.items[record.recordID] else { continue }
                item.lastKnownRecord = record
                // Edited again while the save was on the wire: still to upload.
                var sentFields = record
                item.populate(&sentFields)
                item.needsUpload = sentFields.fields != record.fields
                store.items[record.recordID] = item
            }
            // Deleted, with what a deleteSelf reference took along.
            for id in sent.deletedRecordIDs where store.items[id]?.needsUpload != true { store.items[id] = nil }
            for failure in sent.failedRecordSaves {
                handleFailedSave(failure, &syncEngine)
            }
        default:
            break
        }
    }

    public func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        SyncEngine.RecordZoneChangeBatch(pendingChanges: context.pendingChanges) { store.record(for: $0) }
    }

    public var userSees: SyncRecordStore { store.view }

    /// Apple's sample: `serverRecordChanged` → merge onto the server record and send again;
    /// `zoneNotFound` → create the zone and send again; `unknownItem` → send as a new record;
    /// `quotaExceeded` → keep it and try again later; a refusal for good → the cloud's version.
    mutating func handleFailedSave(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine) {
        let id = failure.record.recordID
        switch failure.error.code {
        case .serverRecordChanged:
            guard let server = failure.error.serverRecord else { return }
            merge(server)
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        case .zoneNotFound:
            store.zones.remove(id.zoneName)
            createZoneIfNeeded(id.zoneName, &syncEngine)
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        case .unknownItem:
            store.items[id]?.lastKnownRecord = nil
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        case .quotaExceeded:
            // Kept: it goes again later (the engine waits), when space may have freed.
            syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        case .limitExceeded, .invalidArguments, .permissionFailure:
            // Refused for good: back to the cloud's version (gone, if it never had one).
            if let known = store.items[id]?.lastKnownRecord {
                var item = TodoItem(lastKnownRecord: nil, needsUpload: false)
                item.take(known)
                store.items[id] = item
            } else {
                store.items[id] = nil
            }
        case .userDeletedZone, .batchRequestFailed:
            break
        }
    }

    /// The server's record, with the fields edited here (and not yet uploaded) kept on top.
    mutating func merge(_ server: SyncRecord) {
        let id = server.recordID
        guard var item = store.items[id], item.needsUpload else {
            var fresh = TodoItem(lastKnownRecord: nil, needsUpload: false)
            fresh.take(server)
            store.items[id] = fresh
            return
        }
        // Edited here: a field that differs from the version the edit started from (every field
        // of a to-do never saved).
        var local = SyncRecord(recordType: "Todo", recordID: id)
        item.populate(&local)
        var merged = server
        for key in ["title", "done"] where item.lastKnownRecord.map({ local[key] != $0[key] }) ?? true {
            merged[key] = local[key]
        }
        item.take(merged)
        item.lastKnownRecord = server
        store.items[id] = item
    }

    mutating func createZoneIfNeeded(_ zone: String, _ syncEngine: inout SyncEngine) {
        guard zone != "_defaultZone", !store.zones.contains(zone) else { return }
        store.zones.insert(zone)
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
    }

    mutating func dropZone(_ zone: String) {
        store.zones.remove(zone)
        for id in store.items.keys where id.zoneName == zone { store.items[id] = nil }
    }
}
