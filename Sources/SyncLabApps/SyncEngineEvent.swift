extension SyncEngine {
    /// `CKSyncEngine.Event`: what the engine tells the app's `handleEvent`.
    public enum Event: Sendable {
        /// The engine's state changed: save `stateSerialization` (with your data) to hand it back
        /// at the next launch. Not saving it loses the pending changes added since the last save.
        case stateUpdate(stateSerialization: State.Serialization)
        /// The device signed in, out, or switched accounts. The engine's state is reset; the app
        /// decides what to do with its local data (drop it at sign-out and switch, as Apple says).
        case accountChange(AccountChange)
        /// Zones changed or were deleted in the private database.
        case fetchedDatabaseChanges(FetchedDatabaseChanges)
        /// Records of one zone changed or were deleted in the cloud.
        case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
        /// Zone saves and deletes the engine sent.
        case sentDatabaseChanges(SentDatabaseChanges)
        /// What a send of records did: saved, deleted, and per-record failures.
        case sentRecordZoneChanges(SentRecordZoneChanges)
        /// A fetch cycle begins (on launch, push, reconnection, foreground).
        case willFetchChanges
        /// One zone's record changes are about to be fetched.
        case willFetchRecordZoneChanges(zoneName: String)
        /// One zone's record changes were fetched (its change token is saved in the state).
        case didFetchRecordZoneChanges(zoneName: String)
        /// The fetch cycle is over.
        case didFetchChanges
        /// The engine starts sending pending changes.
        case willSendChanges
        /// Nothing more can be sent for now (none pending, or none the app gave a record for).
        case didSendChanges
    }

    /// `CKSyncEngine.Event.AccountChange.ChangeType`.
    public enum AccountChange: Hashable, Sendable {
        /// Signed in with no account before.
        case signIn
        /// Signed out of iCloud.
        case signOut
        /// Signed into another account.
        case switchAccounts
    }

    /// `CKSyncEngine.Event.FetchedDatabaseChanges`.
    public struct FetchedDatabaseChanges: Hashable, Sendable {
        /// Zones created or changed, by name.
        public var modifications: [String]
        /// Zones deleted, with why.
        public var deletions: [ZoneDeletion]
    }

    /// A deleted zone and `CKDatabase.DatabaseChange.Deletion.Reason`.
    public struct ZoneDeletion: Hashable, Sendable {
        /// Why the zone is gone.
        public enum Reason: Hashable, Sendable {
            /// An app deleted the zone.
            case deleted
            /// The user deleted the zone's data from Settings: upload nothing more into it.
            case purged
            /// The account's encrypted data was reset (the simulated cloud never sends it yet).
            case encryptedDataReset
        }
        /// The deleted zone.
        public var zoneName: String
        /// Why it was deleted.
        public var reason: Reason
    }

    /// `CKSyncEngine.Event.FetchedRecordZoneChanges`.
    public struct FetchedRecordZoneChanges: Hashable, Sendable {
        /// Records changed in the cloud, as it has them now.
        public var modifications: [SyncRecord]
        /// Records deleted in the cloud.
        public var deletions: [SyncRecord.ID]
    }

    /// `CKSyncEngine.Event.SentDatabaseChanges`.
    public struct SentDatabaseChanges: Hashable, Sendable {
        /// Zones the cloud now has.
        public var savedZones: [String]
        /// Zones the cloud deleted.
        public var deletedZones: [String]
    }

    /// `CKSyncEngine.Event.SentRecordZoneChanges`. A failed change is no longer pending: add it
    /// again to retry it (the engine itself retries only transport and throttling failures).
    public struct SentRecordZoneChanges: Hashable, Sendable {
        /// Records the cloud saved, as it now has them (new change tags).
        public var savedRecords: [SyncRecord]
        /// Records the cloud deleted (with the records a `deleteSelf` reference cascaded to).
        public var deletedRecordIDs: [SyncRecord.ID]
        /// Saves the cloud refused, each with its error.
        public var failedRecordSaves: [FailedRecordSave]
        /// Deletes the cloud refused, each with its error.
        public var failedRecordDeletes: [FailedRecordDelete]
    }

    /// One record save the cloud refused.
    public struct FailedRecordSave: Hashable, Sendable {
        /// The record the app sent.
        public var record: SyncRecord
        /// Why the cloud refused it.
        public var error: SyncError
    }

    /// One record delete the cloud refused.
    public struct FailedRecordDelete: Hashable, Sendable {
        /// The record the app asked to delete.
        public var recordID: SyncRecord.ID
        /// Why the cloud refused it.
        public var error: SyncError
    }

    /// A per-record `CKError`: its code and, for `serverRecordChanged`, the three records.
    public struct SyncError: Hashable, Sendable {
        /// `CKError.Code` (the ones the simulated cloud gives per record).
        public enum Code: String, Hashable, Sendable {
            /// The record changed in the cloud since the version the app's change tag names.
            case serverRecordChanged
            /// The record is gone from the cloud (deleted elsewhere).
            case unknownItem
            /// The zone does not exist (never created, or deleted by an app).
            case zoneNotFound
            /// The user deleted the zone in Settings: upload nothing more into it.
            case userDeletedZone
            /// The record is over a size limit.
            case limitExceeded
            /// The account's iCloud storage is full.
            case quotaExceeded
            /// The schema (production environment) refuses the record type or a field.
            case invalidArguments
            /// The public database: only a record's creator may change it.
            case permissionFailure
            /// Another record of an atomic batch failed, so this one was not applied.
            case batchRequestFailed
        }
        /// The `CKError.Code`.
        public var code: Code
        /// `serverRecord`: the cloud's version (`serverRecordChanged`).
        public var serverRecord: SyncRecord?
        /// `clientRecord`: what the app sent (`serverRecordChanged`).
        public var clientRecord: SyncRecord?
        /// `ancestorRecord`: the version the app's change tag named, when the cloud still has it.
        public var ancestorRecord: SyncRecord?
    }
}
