import SyncLabKernel
import SyncLabProtocol

extension RecordService {
    /// What one modify request works on: copies, so an atomic batch can be thrown away whole.
    struct Workspace {
        var db: CloudRecordDatabase
        var storage: StorageLedger
        var schema: RecordSchema
        var lastChangeTag: UInt64
        var changed = false
    }

    /// Saves and deletes records. Checks the request's size first (a request over the batch or
    /// byte limit fails whole with `limitExceeded`, and the engine splits it). An atomic request
    /// in custom zones applies all items or none: when one fails, the others fail with
    /// `batchRequestFailed`.
    mutating func modifyRecords(_ request: RequestEnvelope, _ modify: RecordModify, _ context: inout CloudContext,
                                storage: inout StorageLedger) -> RecordResponse {
        let limits = configuration.limits.records
        if modify.itemCount > limits.batch || modify.sizeBytes > limits.requestBytes {
            context.log("requestTooLarge", [("items", String(modify.itemCount)), ("bytes", String(modify.sizeBytes))])
            return .failed(.limitExceeded)
        }
        let dbKey = key(modify.database, request)
        // Taken out of the dictionary so the workspace mutates it in place; only an atomic batch,
        // which may have to be undone, keeps the original aside (and pays for the copy).
        let taken = databases.removeValue(forKey: dbKey)
        let original = modify.atomic ? taken : nil
        var work = Workspace(db: (consume taken) ?? CloudRecordDatabase(), storage: storage, schema: schema, lastChangeTag: lastChangeTag)
        // Deletes apply first so the space they free is there for the saves; results are
        // listed in request order (saves, then deletes).
        let deleteResults = modify.deletes.map { applyDelete($0, request, dbKey, &work) }
        var results: [RecordItemResult] = []
        results.reserveCapacity(modify.itemCount)
        for save in modify.saves {
            results.append(applySave(save, request, dbKey, modify.savePolicy, &work, context.now))
        }
        results.append(contentsOf: deleteResults)
        let inDefaultZone = modify.saves.contains { $0.id.zone == RecordID.defaultZone } || modify.deletes.contains { $0.id.zone == RecordID.defaultZone }
        let atomic = modify.atomic && !inDefaultZone
        let anyFailed = results.contains { if case .failed = $0 { return true } else { return false } }
        if atomic && anyFailed {
            // All or nothing: drop the workspace, report which items failed and that the rest did not apply.
            results = results.map { result in
                switch result {
                case .failed: return result
                case .saved(let record): return .failed(record.id, .batchRequestFailed)
                case .deleted(let id, _), .deletedBefore(let id, _): return .failed(id, .batchRequestFailed)
                }
            }
            context.log("atomicBatchFailed", [("items", String(modify.itemCount))])
            // The batch is undone, but a refusal for space still happened.
            if results.contains(where: { if case .failed(_, .quotaExceeded) = $0 { return true } else { return false } }) {
                storage.noteRefusal(dbKey)
            }
            if let original { databases[dbKey] = original }
            return .recordsModified(results)
        }
        databases[dbKey] = work.db
        storage = work.storage
        schema = work.schema
        lastChangeTag = work.lastChangeTag
        if work.changed { pushChange(dbKey, except: request.device, &context) }
        return .recordsModified(results)
    }

    /// One save, checked in CloudKit's order: zone, permission, change tag, schema, size, quota.
    private func applySave(_ save: RecordSave, _ request: RequestEnvelope, _ dbKey: AccountID, _ policy: SavePolicy,
                           _ work: inout Workspace, _ now: LocalInstant) -> RecordItemResult {
        let id = save.id
        if id.zone != RecordID.defaultZone && work.db.zones[id.zone] == nil {
            // A re-sent save applied before the zone was deleted: done, and deleted since.
            if work.db.deletedZones[id.zone]?.appliedSaves[id.name]?.contains(save) == true { return .deleted(id, cascaded: []) }
            return .failed(id, work.db.deletedZones[id.zone]?.deletion.byUser == true ? .userDeletedZone : .zoneNotFound)
        }
        // Read in place: a copy of the zone held across the change below would make the
        // dictionary copy all of its records on write.
        let existing = work.db.zones[id.zone]!.records[id.name]
        if dbKey == .publicDatabase, let existing, existing.record.creatorAccount != request.account {
            return .failed(id, .permissionFailure)
        }
        if let existing {
            // Re-sending a write the cloud already applied (its response was lost) succeeds as is:
            // the very same save applied before (whatever others did on top of it since), or a
            // save whose every field the record already holds.
            let applied = existing.appliedSaves.contains(save)
                || save.fields.allSatisfy { existing.record.fields[$0.key] == $0.value }
                    && (!save.fields.isEmpty || existing.record.existenceWrite == save.existenceWrite)
            if applied { return .saved(existing.record) }
            // A re-sent save applied to the record of an earlier zone of this name, deleted with
            // it: done, and deleted since. The record here is another one, created in the zone
            // made again; the device learns of it by fetching (records seed 9423: answered
            // `serverRecordChanged`, the device kept the deleted zone's version beside the
            // deletion of its other records).
            if work.db.zones[id.zone]!.savesBeforeZoneDeletion[id.name]?.contains(save) == true { return .deleted(id, cascaded: []) }
            // Likewise a save applied to an earlier record of this name, deleted since.
            if existing.savesBeforeDeletion.contains(save) { return .deleted(id, cascaded: []) }
            if policy == .ifServerRecordUnchanged && save.baseTag != existing.record.changeTag {
                let ancestor = save.baseTag.flatMap { tag in existing.history.last { $0.changeTag == tag } }
                return .failed(id, .serverRecordChanged(server: existing.record, client: save, ancestor: ancestor))
            }
        } else if work.db.zones[id.zone]!.tombstones[id.name]?.appliedSaves.contains(save) == true
                    || work.db.zones[id.zone]!.savesBeforeZoneDeletion[id.name]?.contains(save) == true {
            // A re-sent save applied before the record was deleted: done, and deleted since.
            return .deleted(id, cascaded: [])
        } else if save.baseTag != nil {
            return .failed(id, .unknownItem)
        }
        var fields = existing?.record.fields ?? [:]
        for (name, field) in save.fields { fields[name] = field }
        if let problem = work.schema.admit(type: existing?.record.type ?? save.type, fields: fields, environment: configuration.environment) {
            return .failed(id, .invalidArguments(detail: problem))
        }
        var record = existing?.record ?? ServerRecord(id: id, type: save.type, fields: [:], changeTag: 0, existenceWrite: save.existenceWrite,
                                                      createdAt: now, modifiedAt: now, creatorDevice: request.device,
                                                      creatorAccount: request.account, lastModifierDevice: request.device,
                                                      zoneIncarnation: work.db.zones[id.zone]!.incarnation)
        record.fields = fields
        let limits = configuration.limits.records
        if record.sizeBytes > limits.recordBytes { return .failed(id, .limitExceeded(limit: "records.recordBytes")) }
        if fields.values.contains(where: { RecordService.largestAsset($0.value) > limits.assetBytes }) {
            return .failed(id, .limitExceeded(limit: "records.assetBytes"))
        }
        let charge = Int64(record.sizeBytes) + record.assetBytes
        let delta = charge - (existing?.chargedBytes ?? 0)
        if !work.storage.fits(dbKey, deltaBytes: delta) {
            work.storage.noteRefusal(dbKey)
            return .failed(id, .quotaExceeded)
        }
        work.storage.charge(dbKey, deltaBytes: delta)
        work.lastChangeTag += 1
        record.changeTag = work.lastChangeTag
        // Change tags only grow: a client's base tag never matches a later version by accident.
        precondition(record.changeTag > existing?.record.changeTag ?? 0,
                     "records: \(id.zone)/\(id.name) saved with change tag \(record.changeTag) after \(existing?.record.changeTag ?? 0)")
        record.modifiedAt = now
        record.lastModifierDevice = request.device
        var history = existing?.history ?? []
        if let old = existing?.record {
            history.append(old)
            if history.count > CloudRecordZone.historyDepth { history.removeFirst() }
        }
        let sequence = work.db.nextSequence()
        // A record made again keeps the memory of the saves applied to it before its delete (its
        // tombstone's), so a save re-sent after its answer was lost is still recognised once
        // the record is deleted again: answered "deleted", it does not make the record a third
        // time (records seed 23403: D's creation, answered late, came back after E's delete,
        // E's re-upload and B's delete, a resurrection).
        var appliedSaves = existing?.appliedSaves ?? work.db.zones[id.zone]!.tombstones[id.name]?.appliedSaves ?? []
        appliedSaves.append(save)
        if appliedSaves.count > CloudRecordZone.savesRemembered { appliedSaves.removeFirst() }
        // A record created over a tombstone keeps what the deleted one had applied.
        let savesBeforeDeletion = existing?.savesBeforeDeletion ?? work.db.zones[id.zone]!.tombstones[id.name]?.appliedSaves ?? []
        work.db.zones[id.zone]!.store(id.name, CloudRecordZone.Entry(record: record, sequence: sequence, chargedBytes: charge, history: history,
                                                                     appliedSaves: appliedSaves, savesBeforeDeletion: savesBeforeDeletion))
        work.db.zones[id.zone]!.lastChangeSequence = sequence
        work.changed = true
        return .saved(record)
    }

    /// One unconditional delete, cascading along `deleteSelf` references in the same zone.
    /// Deleting a record (or zone) that is already gone succeeds: requests must be idempotent.
    private func applyDelete(_ deletion: RecordDeletion, _ request: RequestEnvelope, _ dbKey: AccountID,
                             _ work: inout Workspace) -> RecordItemResult {
        let id = deletion.id
        // A re-sent delete the cloud already applied: done, even if the record was re-created since
        // (in a zone of its name created again, too: records seed 310).
        if work.db.zones[id.zone]?.deleteApplied(id.name, deletion.write) == true {
            if let current = work.db.zones[id.zone]?.records[id.name]?.record { return .deletedBefore(id, current: current) }
            return .deleted(id, cascaded: [])
        }
        guard let existing = work.db.zones[id.zone]?.records[id.name] else { return .deleted(id, cascaded: []) }
        if dbKey == .publicDatabase, existing.record.creatorAccount != request.account { return .failed(id, .permissionFailure) }
        var queue = [id.name]
        var cascaded: [RecordID] = []
        let sequence = work.db.nextSequence()
        while let name = queue.first {
            queue.removeFirst()
            guard let entry = work.db.zones[id.zone]!.bury(name, CloudRecordZone.Tombstone(write: deletion.write, sequence: sequence)) else { continue }
            work.storage.charge(dbKey, deltaBytes: -entry.chargedBytes)
            if name != id.name { cascaded.append(RecordID(zone: id.zone, name: name)) }
            queue.append(contentsOf: work.db.zones[id.zone]!.cascadeTargets(of: name))
        }
        work.db.zones[id.zone]!.lastChangeSequence = sequence
        work.changed = true
        return .deleted(id, cascaded: cascaded.sorted())
    }

    /// The largest single asset inside a value.
    static func largestAsset(_ value: FieldValue?) -> Int64 {
        switch value {
        case .none: return 0
        case .some(.asset(let size)): return size
        case .some(.list(let elements)): return elements.map { largestAsset($0) }.max() ?? 0
        case .some(.string), .some(.int), .some(.double), .some(.bytes), .some(.date), .some(.location), .some(.reference): return 0
        }
    }
}
