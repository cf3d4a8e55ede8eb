/// A request of the Records service (the CloudKit operations a CKSyncEngine-like engine uses).
public enum RecordRequest: Sendable {
    /// CKModifyRecordZonesOperation: create zones and delete zones in one database.
    case modifyZones(database: DatabaseScope, saves: [String], deletes: [ZoneDeletion])
    /// CKModifyRecordsOperation.
    case modifyRecords(RecordModify)
    /// CKFetchDatabaseChangesOperation (private database; nil token: from scratch).
    case fetchDatabaseChanges(database: DatabaseScope, since: DatabaseChangeToken?)
    /// CKFetchRecordZoneChangesOperation for the listed zones.
    case fetchZoneChanges(database: DatabaseScope, zones: [ZoneFetch])
    /// A query for every record of a zone (CKQuery with a true predicate): how records of a zone
    /// without change tracking (the public database) reach a device.
    case queryRecords(database: DatabaseScope, zone: String)
    /// CKDatabaseSubscription: push this device when the database changes.
    case createSubscription(database: DatabaseScope)

    /// Bytes on the wire that count toward transfer time: a modify request's records, measured
    /// as the records quota measures them (`RecordModify.sizeBytes`: field names plus values, a
    /// delete's record name), plus the assets uploaded with them. Like a document upload, a
    /// request of 3 MB of records takes its time on a slow link. The other requests are small
    /// enough to count as latency only.
    public var transferBytes: Int64 {
        switch self {
        case .modifyRecords(let modify): return Int64(modify.sizeBytes) + modify.saves.reduce(0) { $0 + $1.assetBytes }
        case .modifyZones, .fetchDatabaseChanges, .fetchZoneChanges, .queryRecords, .createSubscription: return 0
        }
    }

    /// The record zones the request reads or writes (not zone creation or deletion, and not the
    /// database-wide change feed), in request order, repeats kept.
    public var zones: [String] {
        switch self {
        case .modifyRecords(let modify): return modify.saves.map(\.id.zone) + modify.deletes.map(\.id.zone)
        case .fetchZoneChanges(_, let zones): return zones.map(\.zone)
        case .queryRecords(_, let zone): return [zone]
        case .modifyZones, .fetchDatabaseChanges, .createSubscription: return []
        }
    }
}
