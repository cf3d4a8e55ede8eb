import SyncLabKernel
import SyncLabProtocol

extension RecordService {
    /// Zones created, changed or deleted since `token` (nil: every zone there is, and every deleted one).
    func fetchDatabaseChanges(_ dbKey: AccountID, since token: DatabaseChangeToken?) -> RecordResponse {
        if let token, token.epoch != tokenEpoch { return .failed(.changeTokenExpired) }
        let db = databases[dbKey] ?? CloudRecordDatabase()
        let since = token?.sequence ?? 0
        let changed = db.sortedZoneNames.filter { $0 != RecordID.defaultZone && (token == nil || db.zones[$0]!.lastChangeSequence > since) }
        let deleted = db.deletedZones.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .compactMap { db.deletedZones[$0] }.filter { $0.sequence > since }.map(\.deletion)
        return .databaseChanges(DatabaseChanges(changedZones: changed, deletedZones: deleted,
                                                token: DatabaseChangeToken(epoch: tokenEpoch, sequence: db.sequence)))
    }

    /// A zone's records changed and deleted since the token, in change order. A token of an earlier
    /// incarnation of the zone counts as none (everything is sent again, deletions included).
    func fetchZoneChanges(_ dbKey: AccountID, _ fetch: ZoneFetch) -> ZoneChanges {
        let db = databases[dbKey] ?? CloudRecordDatabase()
        guard let zone = db.zones[fetch.zone] else {
            let error: ZoneFetchError = db.deletedZones[fetch.zone]?.deletion.byUser == true ? .userDeletedZone : .zoneNotFound
            return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: nil, error: error)
        }
        if let token = fetch.token, token.epoch != tokenEpoch {
            return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: nil, error: .changeTokenExpired)
        }
        let token = ZoneChangeToken(epoch: tokenEpoch, incarnation: zone.incarnation, sequence: db.sequence)
        // The default zone has no change tracking: fetching its changes brings nothing.
        if fetch.zone == RecordID.defaultZone { return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: token, error: nil) }
        let since = fetch.token.flatMap { $0.incarnation == zone.incarnation ? $0.sequence : nil } ?? 0
        let changes = zone.changes(since: since)
        let deleted = changes.deleted.map { RecordDeletion(id: RecordID(zone: fetch.zone, name: $0.name), write: $0.tombstone.write) }
        return ZoneChanges(zone: fetch.zone, changed: changes.changed, deleted: deleted, token: token, error: nil)
    }

    /// Every live record of a zone and its deletions: a query with a true predicate.
    func query(_ dbKey: AccountID, zone zoneName: String) -> RecordResponse {
        let db = databases[dbKey] ?? CloudRecordDatabase()
        guard let zone = db.zones[zoneName] else { return .queryResult(zone: zoneName, records: [], deleted: []) }
        let records = zone.sortedNames.map { zone.records[$0]!.record }
        let deleted = zone.tombstones.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { RecordDeletion(id: RecordID(zone: zoneName, name: $0), write: zone.tombstones[$0]!.write) }
        return .queryResult(zone: zoneName, records: records, deleted: deleted)
    }
}
