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
    /// One zone's fetched record changes: records changed (as the cloud sent them: the adapter
    /// makes the app's records from them directly), records deleted.
    case fetchedRecordZoneChanges(zone: String, modified: [ServerRecord], deleted: [RecordID])
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
