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
        // Loops over the records in place: `reduce` copied every record (each of its strings and
        // its field dictionary retained and released) for every answer the simulator times.
        switch self {
        case .zoneChanges(let zones):
            var total: Int64 = 0
            for zone in zones.indices {
                // Through the buffer: `changed[record]` copied each record; `assetBytes` is stored,
                // so reading it through the buffer copies nothing.
                zones[zone].changed.withUnsafeBufferPointer { records in
                    for record in records.indices { total += records[record].assetBytes }
                }
            }
            return total
        case .queryResult(_, let records, _):
            var total: Int64 = 0
            for record in records.indices { total += records[record].assetBytes }
            return total
        case .zonesModified, .recordsModified, .databaseChanges, .subscribed, .failed: return 0
        }
    }
}
