package import SyncLabProtocol
package import SyncLabEngines
package import SyncLabKernel

/// Adapts a team's `RecordsApp` to the platform's hosting protocol: converts events and records
/// between the platform's terms and the public ones.
package struct HostedRecordsApp<App: RecordsApp>: SyncEngineAppHosting {
    var app: App
    /// Where the last reading of `userSees` stopped (nil: not read since launch).
    var cursor: SyncRecordStore.Cursor?
    /// The device's clock, set by the platform before each call (`SyncEngine.now`).
    package var deviceClock = LocalInstant(microseconds: 0)
    /// The handle every call lends the platform's state through (`SyncEngine.lend`): made once,
    /// not per call (telling the app of a fetch is seven calls, most of which change nothing).
    var engine = SyncEngine.idle()

    /// Launches the app from what it persisted (nil, or a disk of another type: a fresh install).
    package init(disk: (any Sendable)?) { app = App(disk: disk as? App.Disk) }

    package var savedState: SyncEngineStateData? { app.stateSerialization?.data }
    package var disk: any Sendable { app.disk }

    package mutating func handle(_ event: HostedSyncEvent, state: inout SyncEngineStateData) {
        engine.lend(&state, now: deviceClock)
        app.handleEvent(HostedRecordsApp.event(event), syncEngine: &engine)
        engine.giveBack(&state)
    }

    package mutating func nextBatch(_ pending: [PendingRecordChangeData], state: inout SyncEngineStateData) -> (saves: [HostedRecord], deletes: [RecordID], atomicByZone: Bool) {
        engine.lend(&state, now: deviceClock)
        let context = SyncEngine.SendChangesContext(pendingChanges: pending.map { change in
            switch change {
            case .save(let id): return .saveRecord(SyncRecord.ID(id))
            case .delete(let id): return .deleteRecord(SyncRecord.ID(id))
            }
        })
        let batch = app.nextRecordZoneChangeBatch(context, syncEngine: &engine)
        engine.giveBack(&state)
        return (batch?.recordsToSave.map(\.hosted) ?? [], batch?.recordIDsToDelete.map(\.protocolID) ?? [], batch?.atomicByZone ?? false)
    }

    package mutating func userDid(_ action: HostedUserAction, state: inout SyncEngineStateData) {
        engine.lend(&state, now: deviceClock)
        let shown: RecordsUserAction
        switch action {
        case .saveRecord(let id, let type, let fields):
            let edits = fields.map { RecordEdit.Edit(name: $0.name, value: $0.value.map(FieldConversion.value)) }
            shown = .saveRecord(RecordEdit(recordID: SyncRecord.ID(id), recordType: type, edits: edits))
        case .deleteRecord(let id): shown = .deleteRecord(SyncRecord.ID(id))
        case .saveAtomically(let saves, let deletes):
            let edits = saves.map { save in
                RecordEdit(recordID: SyncRecord.ID(save.id), recordType: save.type,
                           edits: save.fields.map { RecordEdit.Edit(name: $0.name, value: $0.value.map(FieldConversion.value)) })
            }
            shown = .saveRecords(edits, deleting: deletes.map(SyncRecord.ID.init))
        case .createZone(let zone): shown = .createZone(zone)
        case .deleteZone(let zone): shown = .deleteZone(zone)
        }
        app.userDid(shown, syncEngine: &engine)
        engine.giveBack(&state)
    }

    package mutating func viewChanges(full: Bool) -> HostedViewChanges? {
        let shown = app.userSees
        // Only the records the store logged since the last reading, when it can tell (the
        // cursor moves on a full reading too).
        var changed: [HostedViewRecord] = [], removed: [RecordID] = []
        let told = shown.forEachChange(since: &cursor) { id in
            guard !full else { return }
            if let record = shown[id] { changed.append(HostedRecordsApp.viewRecord(record)) } else { removed.append(id.protocolID) }
        }
        if told && !full {
            guard !changed.isEmpty || !removed.isEmpty else { return nil }
            return HostedViewChanges(changed: changed, removed: removed, complete: false)
        }
        return HostedViewChanges(changed: shown.values.map(HostedRecordsApp.viewRecord), removed: [], complete: true)
    }

    /// A record as the platform reads what the user sees: fields no record can hold left out.
    static func viewRecord(_ record: SyncRecord) -> HostedViewRecord {
        // A record stored as the cloud sent it shows the cloud's fields: read without a copy.
        if let stored = record.cloudStoredFields {
            return HostedViewRecord(zone: record.recordID.zoneName, name: record.recordID.recordName, type: record.recordType, cloudFields: stored, changeTag: record.changeTag)
        }
        // `mapValues` copies the record's hash table (no name hashed again, no table grown): each
        // fetched record a device shows is read back. A field no record can hold is left out.
        var refused = false
        let converted = record.fields.mapValues { value -> FieldValue in
            guard let field = FieldConversion.field(value) else { refused = true; return .int(0) }
            return field
        }
        let fields = refused ? record.fields.compactMapValues(FieldConversion.field) : converted
        return HostedViewRecord(zone: record.recordID.zoneName, name: record.recordID.recordName, type: record.recordType, fields: fields, changeTag: record.changeTag)
    }

    /// The platform's event as the app's.
    static func event(_ event: HostedSyncEvent) -> SyncEngine.Event {
        switch event {
        case .stateUpdate(let data): return .stateUpdate(stateSerialization: SyncEngine.State.Serialization(data: data))
        case .accountChange(let change):
            switch change {
            case .signIn: return .accountChange(.signIn)
            case .signOut: return .accountChange(.signOut)
            case .switchAccounts: return .accountChange(.switchAccounts)
            }
        case .fetchedDatabaseChanges(let modified, let deleted):
            return .fetchedDatabaseChanges(SyncEngine.FetchedDatabaseChanges(modifications: modified, deletions: deleted.map { deletion in
                let reason: SyncEngine.ZoneDeletion.Reason
                switch deletion.reason {
                case .deleted: reason = .deleted
                case .purged: reason = .purged
                case .encryptedDataReset: reason = .encryptedDataReset
                }
                return SyncEngine.ZoneDeletion(zoneName: deletion.zone, reason: reason)
            }))
        case .fetchedRecordZoneChanges(_, let modified, let deleted):
            return .fetchedRecordZoneChanges(SyncEngine.FetchedRecordZoneChanges(modifications: modified.map(SyncRecord.init(server:)), deletions: deleted.map(SyncRecord.ID.init)))
        case .sentDatabaseChanges(let saved, let deleted, _):
            return .sentDatabaseChanges(SyncEngine.SentDatabaseChanges(savedZones: saved, deletedZones: deleted))
        case .sentRecordZoneChanges(let saved, let deleted, let failedSaves, let failedDeletes):
            let saves = failedSaves.map { failure in
                let code = SyncEngine.SyncError.Code(rawValue: failure.error) ?? .invalidArguments
                let error = SyncEngine.SyncError(code: code, serverRecord: failure.serverRecord.map(SyncRecord.init),
                                                 clientRecord: code == .serverRecordChanged ? SyncRecord(failure.record) : nil,
                                                 ancestorRecord: failure.ancestorRecord.map(SyncRecord.init))
                return SyncEngine.FailedRecordSave(record: SyncRecord(failure.record), error: error)
            }
            let deletes = failedDeletes.map { failure in
                SyncEngine.FailedRecordDelete(recordID: SyncRecord.ID(failure.id),
                                              error: SyncEngine.SyncError(code: SyncEngine.SyncError.Code(rawValue: failure.error) ?? .invalidArguments))
            }
            return .sentRecordZoneChanges(SyncEngine.SentRecordZoneChanges(savedRecords: saved.map(SyncRecord.init), deletedRecordIDs: deleted.map(SyncRecord.ID.init),
                                                                            failedRecordSaves: saves, failedRecordDeletes: deletes))
        case .willFetchChanges: return .willFetchChanges
        case .willFetchRecordZoneChanges(let zone): return .willFetchRecordZoneChanges(zoneName: zone)
        case .didFetchRecordZoneChanges(let zone): return .didFetchRecordZoneChanges(zoneName: zone)
        case .didFetchChanges: return .didFetchChanges
        case .willSendChanges: return .willSendChanges
        case .didSendChanges: return .didSendChanges
        }
    }
}
