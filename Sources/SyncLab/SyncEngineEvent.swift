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
        case willFetchChanges
        case willFetchRecordZoneChanges(zoneName: String)
        case didFetchRecordZoneChanges(zoneName: String)
        case didFetchChanges
        case willSendChanges
        case didSendChanges
    }

    /// `CKSyncEngine.Event.AccountChange.ChangeType`.
    public enum AccountChange: Hashable, Sendable {
        case signIn
        case signOut
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
        public enum Reason: Hashable, Sendable {
            /// An app deleted the zone.
            case deleted
            /// The user deleted the zone's data from Settings: upload nothing more into it.
            case purged
            /// The account's encrypted data was reset.
            case encryptedDataReset
        }
        public var zoneName: String
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
        public var savedZones: [String]
        public var deletedZones: [String]
    }

    /// `CKSyncEngine.Event.SentRecordZoneChanges`. A failed change is no longer pending: add it
    /// again to retry it (the engine itself retries only transport and throttling failures).
    public struct SentRecordZoneChanges: Hashable, Sendable {
        /// Records the cloud saved, as it now has them (new change tags).
        public var savedRecords: [SyncRecord]
        public var deletedRecordIDs: [SyncRecord.ID]
        public var failedRecordSaves: [FailedRecordSave]
        public var failedRecordDeletes: [FailedRecordDelete]
    }

    /// One record save the cloud refused.
    public struct FailedRecordSave: Hashable, Sendable {
        /// The record the app sent.
        public var record: SyncRecord
        public var error: SyncError
    }

    /// One record delete the cloud refused.
    public struct FailedRecordDelete: Hashable, Sendable {
        public var recordID: SyncRecord.ID
        public var error: SyncError
    }

    /// A per-record `CKError`: its code and, for `serverRecordChanged`, the three records.
    public struct SyncError: Hashable, Sendable {
        /// `CKError.Code` (the ones the simulated cloud gives per record).
        public enum Code: String, Hashable, Sendable {
            case serverRecordChanged, unknownItem, zoneNotFound, userDeletedZone, limitExceeded, quotaExceeded
            case invalidArguments, permissionFailure, batchRequestFailed
        }
        public var code: Code
        /// `serverRecord`: the cloud's version (`serverRecordChanged`).
        public var serverRecord: SyncRecord?
        /// `clientRecord`: what the app sent (`serverRecordChanged`).
        public var clientRecord: SyncRecord?
        /// `ancestorRecord`: the version the app's change tag named, when the cloud still has it.
        public var ancestorRecord: SyncRecord?
    }
}
