/// A response of the Records service.
public enum RecordResponse: Sendable {
    /// Zones created (or already there) and deleted, as asked.
    case zonesModified(saved: [String], deleted: [String])
    /// One result per item, in request order: saves, then deletes.
    case recordsModified([RecordItemResult])
    case databaseChanges(DatabaseChanges)
    /// One entry per zone asked for, in request order.
    case zoneChanges([ZoneChanges])
    /// Every live record of the zone, and the zone's deletions.
    case queryResult(zone: String, records: [ServerRecord], deleted: [RecordDeletion])
    case subscribed(database: DatabaseScope)
    /// The whole request failed at the service.
    case failed(RecordRequestFailure)

    /// Bytes that take transfer time: the assets of records downloaded by a fetch or query.
    public var transferBytes: Int64 {
        switch self {
        case .zoneChanges(let zones): return zones.reduce(0) { $0 + $1.changed.reduce(0) { $0 + $1.assetBytes } }
        case .queryResult(_, let records, _): return records.reduce(0) { $0 + $1.assetBytes }
        case .zonesModified, .recordsModified, .databaseChanges, .subscribed, .failed: return 0
        }
    }
}
