import SyncLabKernel
import SyncLabProtocol

extension RecordService {
    /// Creates and deletes custom zones. Creating a live zone is a no-op; deleting a missing
    /// zone succeeds (requests must be idempotent). Deleting removes the zone's records and frees
    /// their storage; devices learn of it from database changes.
    mutating func modifyZones(_ request: RequestEnvelope, _ database: DatabaseScope, saves: [String], deletes: [ZoneDeletion],
                              _ context: inout CloudContext, storage: inout StorageLedger) -> RecordResponse {
        if database == .public && (saves.contains { $0 != RecordID.defaultZone } || !deletes.isEmpty) {
            return .failed(.invalidArguments(detail: "the public database has only the default zone"))
        }
        let dbKey = key(database, request)
        var db = databases.removeValue(forKey: dbKey) ?? CloudRecordDatabase()
        var changed = false
        for zone in saves where zone != RecordID.defaultZone && db.zones[zone] == nil {
            let sequence = db.nextSequence()
            db.zones[zone] = CloudRecordZone(incarnation: db.nextIncarnation, sequence: sequence)
            db.zones[zone]!.savesBeforeZoneDeletion = db.deletedZones[zone]?.appliedSaves ?? [:]
            db.zones[zone]!.deletesBeforeZoneDeletion = db.deletedZones[zone]?.appliedDeletes ?? [:]
            db.nextIncarnation += 1
            db.deletedZones[zone] = nil
            changed = true
        }
        for deletion in deletes where deletion.zone != RecordID.defaultZone {
            if let zone = db.zones[deletion.zone] {
                for name in zone.sortedNames { storage.charge(dbKey, deltaBytes: -zone.records[name]!.chargedBytes) }
                db.zones[deletion.zone] = nil
                var deletion = deletion
                deletion.incarnation = zone.incarnation
                db.deletedZones[deletion.zone] = CloudRecordDatabase.DeletedZone(deletion: deletion, sequence: db.nextSequence(),
                                                                                 appliedSaves: zone.appliedSavesByName,
                                                                                 appliedDeletes: zone.appliedDeletesByName)
                changed = true
            } else if deletion.byUser, let gone = db.deletedZones[deletion.zone], !gone.deletion.byUser {
                // The user deleting an already deleted zone from Settings still blocks it.
                var deletion = deletion
                deletion.incarnation = gone.deletion.incarnation
                db.deletedZones[deletion.zone] = CloudRecordDatabase.DeletedZone(deletion: deletion, sequence: db.nextSequence(),
                                                                                 appliedSaves: gone.appliedSaves, appliedDeletes: gone.appliedDeletes)
                changed = true
            }
        }
        databases[dbKey] = db
        if changed {
            context.log("zonesModified", [("saved", saves.joined(separator: ",")), ("deleted", deletes.map(\.zone).joined(separator: ","))])
            pushChange(dbKey, except: request.device, &context)
        }
        return .zonesModified(saved: saves, deleted: deletes.map(\.zone))
    }
}
