import SyncLabProtocol

/// What the platform tells a hosted records app: the events `CKSyncEngine` sends its delegate
/// (SPEC §9), in platform terms (the app's adapter turns them into the public types).
public enum HostedSyncEvent: Sendable {
    /// The engine's state changed: save this serialization to start from it after a crash.
    case stateUpdate(SyncEngineStateData)
    /// The device signed in, out, or switched accounts; the engine's state was reset.
    case accountChange(HostedAccountChange)
    /// Zones changed or deleted (with why) in the private database.
    case fetchedDatabaseChanges(modified: [String], deleted: [HostedZoneDeletion])
    /// One zone's fetched record changes: records changed, records deleted (with their types when known).
    case fetchedRecordZoneChanges(zone: String, modified: [HostedRecord], deleted: [RecordID])
    /// Zones saved and deleted, and zone changes the cloud refused.
    case sentDatabaseChanges(saved: [String], deleted: [String], failed: [(zone: String, error: String)])
    /// What a send did: records saved (as the server now has them), deleted, and per-record failures.
    case sentRecordZoneChanges(saved: [HostedRecord], deleted: [RecordID], failedSaves: [HostedSaveFailure], failedDeletes: [(id: RecordID, error: String)])
    case willFetchChanges
    case willFetchRecordZoneChanges(zone: String)
    case didFetchRecordZoneChanges(zone: String)
    case didFetchChanges
    case willSendChanges
    case didSendChanges
}

/// `CKSyncEngine.Event.AccountChange.ChangeType`.
public enum HostedAccountChange: Hashable, Sendable {
    case signIn
    case signOut
    case switchAccounts
}

/// A zone deletion fetched from the cloud, with `CKDatabase.DatabaseChange.Deletion.Reason`.
public struct HostedZoneDeletion: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// An app deleted the zone.
        case deleted
        /// The user deleted the zone's data from Settings: upload nothing more into it.
        case purged
        /// The zone is gone because the account's data was reset (token epoch) — not used yet.
        case encryptedDataReset
    }
    public var zone: String
    public var reason: Reason
    public init(zone: String, reason: Reason) { self.zone = zone; self.reason = reason }
}

/// One record save the cloud refused: the record the app sent, the CKError code, and for
/// `serverRecordChanged` the server's record and the ancestor (the version the app's tag named).
public struct HostedSaveFailure: Hashable, Sendable {
    public var record: HostedRecord
    public var error: String
    public var serverRecord: HostedRecord?
    public var ancestorRecord: HostedRecord?
    public init(record: HostedRecord, error: String, serverRecord: HostedRecord?, ancestorRecord: HostedRecord?) {
        self.record = record; self.error = error; self.serverRecord = serverRecord; self.ancestorRecord = ancestorRecord
    }
}

/// What the user did through a hosted records app (a scenario's records op).
public enum HostedUserAction: Sendable {
    /// `record.save`: set these fields (nil removes one), creating the record if needed.
    case saveRecord(id: RecordID, type: String, fields: [FieldAssignment])
    /// `record.delete`.
    case deleteRecord(RecordID)
    /// `zone.create`.
    case createZone(String)
    /// `zone.delete` through the app (not from Settings).
    case deleteZone(String)
}

/// One record of what a hosted records app shows its user.
public struct HostedViewRecord: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    public var fields: [String: FieldValue]
    public init(id: RecordID, type: String, fields: [String: FieldValue]) { self.id = id; self.type = type; self.fields = fields }
}

/// The platform's side of a team's records app (a CKSyncEngine delegate) a device hosts.
/// Sans-IO like the engines: the platform calls it synchronously and carries the write ids.
public protocol SyncEngineAppHosting {
    /// The state serialization the app hands the engine when it launches (what it saved).
    var savedState: SyncEngineStateData? { get }
    /// What the app has persisted now (opaque to the platform): given back at the next launch.
    var disk: any Sendable { get }
    /// `handleEvent`. `state` is the engine's state: the app may add or remove pending changes.
    mutating func handle(_ event: HostedSyncEvent, state: inout SyncEngineStateData)
    /// `nextRecordZoneChangeBatch` for these pending changes: the records to save (an id the app
    /// gives no record for is skipped) and the ids to delete.
    mutating func nextBatch(_ pending: [PendingRecordChangeData], state: inout SyncEngineStateData) -> (saves: [HostedRecord], deletes: [RecordID])
    /// The user did `action` through the app.
    mutating func userDid(_ action: HostedUserAction, state: inout SyncEngineStateData)
    /// What the app shows its user, as changes since the last call: nil when nothing changed.
    /// With `full` (the first reading after a launch), every record it shows, as changed.
    mutating func viewChanges(full: Bool) -> (changed: [HostedViewRecord], removed: [RecordID])?
}
