import SyncLab

/// How a to-do delegate behaves where teams get it wrong.
protocol TodoFlavor {
    /// On `serverRecordChanged`, adopt the server record (dropping the local edit) instead of
    /// putting the locally edited fields on top of it.
    static var adoptsServerOnConflict: Bool { get }
    /// Which state serializations the app saves: every `stateUpdate`, or only the one current
    /// when a sync finishes (`didSendChanges`/`didFetchChanges`): a crash in between loses
    /// the pending changes added since.
    static var savesEveryStateUpdate: Bool { get }
    /// Adds every failed save again, whatever the error (a bug when the error cannot go away).
    static var retriesEveryFailure: Bool { get }
    /// Sends its batches atomic by zone.
    static var atomicByZone: Bool { get }
    /// Persists nothing at all: every launch starts empty (no records, no state serialization).
    static var persistsNothing: Bool { get }
}

extension TodoFlavor {
    static var retriesEveryFailure: Bool { false }
    static var atomicByZone: Bool { false }
    static var persistsNothing: Bool { false }
}

/// Keeps everything in memory only: a crash forgets the records, the edits and the state.
enum PersistsNothing: TodoFlavor {
    static let adoptsServerOnConflict = false
    static let savesEveryStateUpdate = true
    static let persistsNothing = true
}

/// Sends atomic batches (`atomicByZone`).
enum Atomic: TodoFlavor {
    static let adoptsServerOnConflict = false
    static let savesEveryStateUpdate = true
    static let atomicByZone = true
}

/// Adds every failed save again.
enum RetriesEverything: TodoFlavor {
    static let adoptsServerOnConflict = false
    static let savesEveryStateUpdate = true
    static let retriesEveryFailure = true
}

/// The careful delegate: merges per field, saves every state update.
enum Careful: TodoFlavor {
    static let adoptsServerOnConflict = false
    static let savesEveryStateUpdate = true
}

/// The naive twin: adopts the server record on `serverRecordChanged`.
enum AdoptsServer: TodoFlavor {
    static let adoptsServerOnConflict = true
    static let savesEveryStateUpdate = true
}

/// Saves the engine's state only when a sync finishes.
enum SavesStateLate: TodoFlavor {
    static let adoptsServerOnConflict = false
    static let savesEveryStateUpdate = false
}

/// What a to-do app persists: its records (the server's version with local edits on top), the
/// fields edited locally and not yet saved, the zones it made, and the state it saved.
struct TodoDisk: Sendable {
    var records = SyncRecordStore()
    var dirty: [SyncRecord.ID: Set<String>] = [:]
    /// The last version the cloud had of each record: what a refused edit reverts to.
    var server: [SyncRecord.ID: SyncRecord] = [:]
    var zones: Set<String> = []
    var state: SyncEngine.State.Serialization?
}

/// A to-do list synced through a CKSyncEngine, ported from Apple's sample's shape.
struct TodoSync<Flavor: TodoFlavor>: RecordsApp {
    var data: TodoDisk
    /// The newest serialization the engine gave (saved to disk when the flavour says so).
    var latestState: SyncEngine.State.Serialization?

    init(disk: TodoDisk?) {
        data = disk ?? TodoDisk()
        latestState = data.state
    }

    var disk: TodoDisk { Flavor.persistsNothing ? TodoDisk() : data }
    var stateSerialization: SyncEngine.State.Serialization? { data.state }

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
            ensureZone(zone, &syncEngine)
        case .deleteZone(let zone):
            drop(zone: zone)
            syncEngine.state.add(pendingDatabaseChanges: [.deleteZone(zone)])
        }
    }

    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
        switch event {
        case .stateUpdate(let state):
            latestState = state
            if Flavor.savesEveryStateUpdate { data.state = state }
        case .didSendChanges, .didFetchChanges:
            data.state = latestState
        case .accountChange(let change):
            if change != .signIn { data = TodoDisk(state: data.state) }
        case .fetchedDatabaseChanges(let changes):
            for deletion in changes.deletions { drop(zone: deletion.zoneName) }
        case .fetchedRecordZoneChanges(let changes):
            for server in changes.modifications { take(server) }
            for id in changes.deletions where data.dirty[id] == nil { data.records[id] = nil; data.server[id] = nil }
        case .sentRecordZoneChanges(let sent):
            for saved in sent.savedRecords { take(saved, settling: true) }
            // Deleted, with what a deleteSelf reference took along.
            for id in sent.deletedRecordIDs where data.dirty[id] == nil { data.records[id] = nil; data.server[id] = nil }
            for failure in sent.failedRecordSaves {
                let id = failure.record.recordID
                switch failure.error.code {
                case .serverRecordChanged:
                    guard let server = failure.error.serverRecord else { continue }
                    if Flavor.adoptsServerOnConflict {
                        data.records[id] = server
                        data.server[id] = server
                        data.dirty[id] = nil
                    } else {
                        take(server)
                        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
                    }
                case .zoneNotFound:
                    data.zones.remove(id.zoneName)
                    ensureZone(id.zoneName, &syncEngine)
                    syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
                case .unknownItem:
                    // Deleted elsewhere: the edit wins, the record goes up again as a new one.
                    if let local = data.records[id] {
                        var fresh = SyncRecord(recordType: local.recordType, recordID: id)
                        for key in local.allKeys() { fresh[key] = local[key] }
                        data.records[id] = fresh
                        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
                    }
                case .quotaExceeded:
                    // Kept: it goes again later (the engine waits), when space may have freed.
                    syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
                default:
                    if Flavor.retriesEveryFailure {
                        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
                    } else {
                        // Refused for good (size, schema, permission): back to the cloud's version.
                        data.records[id] = data.server[id]
                        data.dirty[id] = nil
                    }
                }
            }
        default:
            break
        }
    }

    func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        SyncEngine.RecordZoneChangeBatch(pendingChanges: context.pendingChanges, atomicByZone: Flavor.atomicByZone) { data.records[$0] }
    }

    var userSees: SyncRecordStore { data.records }

    private mutating func save(_ edit: RecordEdit, _ syncEngine: inout SyncEngine) {
        var record = data.records[edit.recordID] ?? SyncRecord(recordType: edit.recordType, recordID: edit.recordID)
        edit.apply(to: &record)
        data.records[edit.recordID] = record
        data.dirty[edit.recordID, default: []].formUnion(edit.fields.map(\.name))
        ensureZone(edit.recordID.zoneName, &syncEngine)
        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(edit.recordID)])
    }

    private mutating func delete(_ id: SyncRecord.ID, _ syncEngine: inout SyncEngine) {
        data.records[id] = nil
        data.dirty[id] = nil
        syncEngine.state.add(pendingRecordZoneChanges: [.deleteRecord(id)])
    }

    /// The server's version with the fields edited here and not yet saved on top. After a save
    /// (`settling`), the fields the server now has with the local value are no longer dirty.
    private mutating func take(_ server: SyncRecord, settling: Bool = false) {
        let id = server.recordID
        data.server[id] = server
        var merged = server
        var dirty = data.dirty[id] ?? []
        if let local = data.records[id] {
            for key in dirty.sorted() {
                if settling && server[key] == local[key] { dirty.remove(key); continue }
                merged[key] = local[key]
            }
        } else {
            dirty = []
        }
        data.records[id] = merged
        data.dirty[id] = dirty.isEmpty ? nil : dirty
    }

    private mutating func ensureZone(_ zone: String, _ syncEngine: inout SyncEngine) {
        guard zone != "_defaultZone", !data.zones.contains(zone) else { return }
        data.zones.insert(zone)
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
    }

    private mutating func drop(zone: String) {
        data.zones.remove(zone)
        data.records.removeAll { $0.recordID.zoneName == zone }
        for id in data.dirty.keys where id.zoneName == zone { data.dirty[id] = nil }
    }
}
