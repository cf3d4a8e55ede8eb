import SyncLabKernel
import SyncLabProtocol

extension RecordService {
    /// Zones created, changed or deleted since `token` (nil: every zone there is, and every deleted one).
    ///
    /// Every device's fetch asks this after every change: the database is read in place (a copy
    /// of it, or of a zone to read its sequence, retained and released each of its tables), and
    /// only the zones and deletions that pass are sorted (the same order as sorting all, then
    /// keeping those). Mutating only to read in place (`RecordService.inPlace`).
    mutating func fetchDatabaseChanges(_ dbKey: AccountID, since token: DatabaseChangeToken?) -> RecordResponse {
        if let token, token.epoch != tokenEpoch { return .failed(.changeTokenExpired) }
        let since = token?.sequence ?? 0
        var changed: [String] = []
        var deleted: [(name: String, deletion: ZoneDeletion)] = []
        var sequence: UInt64 = 0
        if let place = databases.index(forKey: dbKey) {
            RecordService.inPlace(&databases.values[place]) { db in
                sequence = db.sequence
                // A walk of indices, not `indices`, which holds a copy of the dictionary: reading
                // in place through it would copy every zone.
                var index = db.zones.startIndex
                while index != db.zones.endIndex {
                    if db.zones.keys[index] != RecordID.defaultZone
                        && (token == nil || RecordService.inPlace(&db.zones.values[index], { $0.lastChangeSequence }) > since) {
                        changed.append(db.zones.keys[index])
                    }
                    db.zones.formIndex(after: &index)
                }
                for index in db.deletedZones.indices where db.deletedZones.values[index].sequence > since {
                    deleted.append((db.deletedZones.keys[index], db.deletedZones.values[index].deletion))
                }
            }
        }
        if changed.count > 1 { changed.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        if deleted.count > 1 { deleted.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        return .databaseChanges(DatabaseChanges(changedZones: changed, deletedZones: deleted.map(\.deletion),
                                                token: DatabaseChangeToken(epoch: tokenEpoch, sequence: sequence)))
    }

    /// A zone's records changed and deleted since the token, in change order. A token of an earlier
    /// incarnation of the zone counts as none (everything is sent again, deletions included).
    /// Mutating only to read in place, as `fetchDatabaseChanges`: no copy of the database or the
    /// zone per fetch.
    mutating func fetchZoneChanges(_ dbKey: AccountID, _ fetch: ZoneFetch) -> ZoneChanges {
        guard let dbPlace = databases.index(forKey: dbKey),
              let zonePlace = databases.values[dbPlace].zones.index(forKey: fetch.zone) else {
            let error: ZoneFetchError = databases[dbKey]?.deletedZones[fetch.zone]?.deletion.byUser == true ? .userDeletedZone : .zoneNotFound
            return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: nil, error: error)
        }
        if let token = fetch.token, token.epoch != tokenEpoch {
            return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: nil, error: .changeTokenExpired)
        }
        let epoch = tokenEpoch
        return RecordService.inPlace(&databases.values[dbPlace]) { db in
            let sequence = db.sequence
            return RecordService.inPlace(&db.zones.values[zonePlace]) { zone in
                RecordService.zoneChanges(fetch, &zone, ZoneChangeToken(epoch: epoch, incarnation: zone.incarnation, sequence: sequence))
            }
        }
    }

    /// The answer to a zone fetch from this zone, with `token` its token now.
    private static func zoneChanges(_ fetch: ZoneFetch, _ zone: inout CloudRecordZone, _ token: ZoneChangeToken) -> ZoneChanges {
        // The default zone has no change tracking: fetching its changes brings nothing.
        if fetch.zone == RecordID.defaultZone { return ZoneChanges(zone: fetch.zone, changed: [], deleted: [], token: token, error: nil) }
        let since = fetch.token.flatMap { $0.incarnation == zone.incarnation ? $0.sequence : nil } ?? 0
        let changes = zone.changes(since: since)
        let deleted = changes.deleted.map { RecordDeletion(id: RecordID(zone: fetch.zone, name: $0.name), write: $0.tombstone.write) }
        return ZoneChanges(zone: fetch.zone, changed: changes.changed, deleted: deleted, token: token, error: nil)
    }

    /// Reads `value` where it is. Through `&dictionary.values[index]` the dictionary's `_modify`
    /// accessor yields the element's address (its storage is this service's own: nothing is
    /// copied), where its getter returns a copy, every table in it retained and then released,
    /// to read one number.
    @inline(__always)
    static func inPlace<Value, Result>(_ value: inout Value, _ read: (inout Value) -> Result) -> Result { read(&value) }


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
