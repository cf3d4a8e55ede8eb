import SyncLab

/// `bench --hosted --store records`'s app: a CKSyncEngine delegate as a careful team writes it
/// (a local database of the last server records with local edits on top; fetched records merged
/// under unsent edits; on `serverRecordChanged` the edit goes on top of the server record and is
/// sent again; every state update saved), so the run does the built-in `merge` engine's work
/// through the public app API.
struct BenchRecordsApp: RecordsApp {
    static let name = "benchRecords"

    struct Disk: Sendable {
        var records = SyncRecordStore()
        var dirty: [SyncRecord.ID: Set<String>] = [:]
        var zones: Set<String> = []
        var state: SyncEngine.State.Serialization?
    }

    var disk: Disk

    init(disk: Disk?) { self.disk = disk ?? Disk() }

    var stateSerialization: SyncEngine.State.Serialization? { disk.state }

    mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
        switch action {
        case .saveRecord(let edit):
            save(edit, &syncEngine)
        case .deleteRecord(let id):
            delete(id, &syncEngine)
        case .saveRecords(let edits, let deletes):
            for edit in edits { save(edit, &syncEngine) }
            for id in deletes { delete(id, &syncEngine) }
        case .createZone(let zone):
            createZone(zone, &syncEngine)
        case .deleteZone(let zone):
            disk.records.removeAll { $0.recordID.zoneName == zone }
            for id in disk.dirty.keys where id.zoneName == zone { disk.dirty[id] = nil }
            disk.zones.remove(zone)
            syncEngine.state.add(pendingDatabaseChanges: [.deleteZone(zone)])
        }
    }

    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
        switch event {
        case .stateUpdate(let state):
            disk.state = state
        case .fetchedRecordZoneChanges(let changes):
            for record in changes.modifications { take(record, settling: false) }
            for id in changes.deletions where disk.dirty[id] == nil { disk.records[id] = nil }
        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords { take(record, settling: true) }
            for failure in sent.failedRecordSaves {
                let id = failure.record.recordID
                switch failure.error.code {
                case .serverRecordChanged:
                    if let server = failure.error.serverRecord { take(server, settling: false) }
                case .zoneNotFound:
                    disk.zones.remove(id.zoneName)
                    createZone(id.zoneName, &syncEngine)
                case .unknownItem:
                    if let local = disk.records[id] {
                        var fresh = SyncRecord(recordType: local.recordType, recordID: id)
                        for key in local.allKeys() { fresh[key] = local[key] }
                        disk.records[id] = fresh
                    }
                default:
                    continue
                }
                syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
            }
        default:
            break
        }
    }

    func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        SyncEngine.RecordZoneChangeBatch(pendingChanges: context.pendingChanges) { disk.records[$0] }
    }

    var userSees: SyncRecordStore { disk.records }

    private mutating func save(_ edit: RecordEdit, _ syncEngine: inout SyncEngine) {
        var record = disk.records[edit.recordID] ?? SyncRecord(recordType: edit.recordType, recordID: edit.recordID)
        edit.apply(to: &record)
        disk.records[edit.recordID] = record
        disk.dirty[edit.recordID, default: []].formUnion(edit.fields.map(\.name))
        createZone(edit.recordID.zoneName, &syncEngine)
        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(edit.recordID)])
    }

    private mutating func delete(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        disk.records[id] = nil
        disk.dirty[id] = nil
        syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(id)])
    }

    /// The server's record with the unsent local edits on top.
    private mutating func take(_ server: SyncRecord, settling: Bool) {
        let id = server.recordID
        // Most fetched records carry no local edit: then the server's record is taken as it is,
        // without reading the local one.
        guard var dirty = disk.dirty[id] else {
            disk.records[id] = server
            return
        }
        var merged = server
        if let local = disk.records[id] {
            for key in dirty.sorted() {
                if settling && server[key] == local[key] { dirty.remove(key); continue }
                merged[key] = local[key]
            }
        }
        disk.records[id] = merged
        disk.dirty[id] = dirty.isEmpty ? nil : dirty
    }

    private mutating func createZone(_ zone: String, _ syncEngine: inout SyncEngine) {
        guard zone != "_defaultZone", disk.zones.insert(zone).inserted else { return }
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
    }
}
