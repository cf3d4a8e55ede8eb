import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// `zone.create`: queues the zone's creation (custom zones of the private database only).
    public mutating func createZone(database: DatabaseScope, zone: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        guard database == .private else { return rejectCall("invalidArguments", zone, &context) }
        guard zone != RecordID.defaultZone else { return .unchanged }
        let key = ZoneKey(database: database, zone: zone)
        var local = state.zones[key] ?? LocalZone()
        local.userDeleted = false
        state.zones[key] = local
        enqueueZoneOperation(key, .create)
        pump(&context)
        return .accepted
    }

    /// `zone.delete`: drops the zone's records locally (the app sees them go, by this write) and
    /// queues the delete. By the user (Settings): nothing more is uploaded into the zone.
    public mutating func deleteZone(database: DatabaseScope, zone: String, byUser: Bool, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        guard database == .private, zone != RecordID.defaultZone else { return rejectCall("invalidArguments", zone, &context) }
        let zoneKey = ZoneKey(database: database, zone: zone)
        noteZoneDeleted(zoneKey)
        // Records already deleted here whose deletes are still pending: the zone delete takes
        // their place, so it must report them if it is discarded, or their loss goes unsaid.
        var replacedDeletes: [ReplacedRecordDelete] = []
        for key in orderedPendingKeys() where key.zoneKey == zoneKey && state.table[local: key] == nil {
            guard let change = state.pending[key], case .delete(let deleteWrite) = change.kind else { continue }
            replacedDeletes.append(ReplacedRecordDelete(write: deleteWrite, key: key, removedFields: change.removedFields))
        }
        var removed: [ItemKey] = []
        for key in state.table.localKeys.sorted() where key.zoneKey == zoneKey {
            removed.append(item(key))
            removeLocal(key, write: write, .local, &context)
        }
        forgetZoneRecords(zoneKey)
        state.zoneOperations.removeAll { $0.zone == zoneKey && $0.kind == .create }
        var local = state.zones[zoneKey] ?? LocalZone()
        local.existsOnServer = false
        local.userDeleted = byUser
        local.token = nil
        local.needsFetch = false
        state.zones[zoneKey] = local
        enqueueZoneOperation(zoneKey, .delete(ZoneDeletion(zone: zone, byUser: byUser, write: write)))
        if let last = state.zoneOperations.lastIndex(where: { $0.zone == zoneKey && $0.kind != .create }) {
            state.zoneOperations[last].removed.append(contentsOf: removed)
            state.zoneOperations[last].replacedDeletes.append(contentsOf: replacedDeletes)
        }
        pump(&context)
        return .accepted
    }

    /// `record.save`: creates the record, or sets the listed fields whose value differs from the
    /// device's copy. A save that changes nothing is no write (`.unchanged`).
    public mutating func save(_ change: RecordFieldsChange, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        guard change.database == .private || change.zone == RecordID.defaultZone else {
            return rejectCall("invalidArguments", change.itemName, &context)
        }
        let key = RecordKey(database: change.database, zone: change.zone, name: change.name)
        if userDeleted(key.zoneKey) { return rejectCall("userDeletedZone", change.itemName, &context) }
        guard applyLocalSave(change, key, write: write, atomicGroup: nil, &context) else { return .unchanged }
        if change.database == .public { state.usesPublicDatabase = true }
        pump(&context)
        return .accepted
    }

    /// `record.delete`: unconditional; cascades locally along `deleteSelf` references.
    public mutating func delete(database: DatabaseScope, zone: String, name: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        let key = RecordKey(database: database, zone: zone, name: name)
        if userDeleted(key.zoneKey) { return rejectCall("userDeletedZone", "\(zone)/\(name)", &context) }
        guard state.table[local: key] != nil else { return .unchanged }
        deleteLocally(key, write: write, atomicGroup: nil, &context)
        pump(&context)
        return .accepted
    }

    /// `records.saveAtomic`: one write over all its saves and deletes, sent as one atomic request
    /// (in a custom zone; the default zone has no atomic batches).
    public mutating func saveAtomic(database: DatabaseScope, zone: String, saves: [RecordFieldsChange], deletes: [String], write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        guard database == .private || zone == RecordID.defaultZone else { return rejectCall("invalidArguments", zone, &context) }
        let zones = [zone] + saves.map(\.zone)
        if let deleted = zones.first(where: { userDeleted(ZoneKey(database: database, zone: $0)) }) {
            return rejectCall("userDeletedZone", deleted, &context)
        }
        let group: WriteID? = zone == RecordID.defaultZone ? nil : write
        if database == .public { state.usesPublicDatabase = true }
        var changed = false
        for change in saves {
            let key = RecordKey(database: database, zone: change.zone, name: change.name)
            if applyLocalSave(change, key, write: write, atomicGroup: group, &context) { changed = true }
        }
        for name in deletes {
            let key = RecordKey(database: database, zone: zone, name: name)
            guard state.table[local: key] != nil else { continue }
            deleteLocally(key, write: write, atomicGroup: group, &context)
            changed = true
        }
        guard changed else { return .unchanged }
        pump(&context)
        return .accepted
    }

    /// `subscription.create`: the private database subscription is made by the engine itself on
    /// first launch (so this is a no-op there); a public database subscription makes the engine
    /// query the public database on pushes, launch and foreground.
    public mutating func createSubscription(database: DatabaseScope, _ context: inout EngineContext) {
        switch database {
        case .private:
            break
        case .public:
            guard !state.publicSubscriptionWanted else { return }
            state.publicSubscriptionWanted = true
            wantFetch = true
        }
        pump(&context)
    }

    /// The user deleted this zone from Settings and it was not created again: SPEC §4.3 says the
    /// engine uploads nothing more into it, so a change there is refused at once (and reported
    /// to the app) instead of staying on this device alone. `zone.create` makes it usable again.
    private func userDeleted(_ zone: ZoneKey) -> Bool {
        state.zones[zone]?.userDeleted == true
    }

    /// Tells the app a call failed at once.
    private func rejectCall(_ error: String, _ name: String, _ context: inout EngineContext) -> AppCallResult {
        context.emit(.notify(AppNotification(store: .records, reason: "error", items: [name])))
        return .rejected(error: error)
    }

    /// Applies a save to the local cache and queues it.
    /// - Returns: whether anything changed.
    mutating func applyLocalSave(_ change: RecordFieldsChange, _ key: RecordKey, write: WriteID, atomicGroup: WriteID?, _ context: inout EngineContext) -> Bool {
        var record: LocalRecord
        var created = false
        var changedFields: Set<String> = []
        var removed: [String] = []
        var replacedDelete: DeleteReplacedBySave?
        if let existing = state.table[local: key] {
            record = existing
        } else {
            record = LocalRecord(type: change.type, fields: [:], existenceWrite: write)
            created = true
            // A pending delete followed by a save becomes one save against the last server record
            // seen: the fields the server has and this save does not set are removed. The removal
            // goes up as this save's own write, made after the delete (as a re-upload after a
            // delete is): the cloud keeps the record's existence, so the delete's write itself
            // never reaches another device, which would show part of it (records seed 2017).
            // The app sees those removals as this save's too: it shows the record as this save
            // made it, so a fetch of the version the save went up against shows nothing of that
            // version's fields beside it (records seed 740).
            // The removals are dated by the delete, when the user made them, not by this save: a
            // field set elsewhere after the delete, unseen here, wins the per-field merge
            // (records seed 5324: dated by the save, the removal beat a body set in between,
            // and the record showed that creation without its body).
            if let pending = state.pending[key], case .delete(let deleteWrite) = pending.kind, let server = state.table[server: key] {
                let removedAt = pending.deletedAt ?? context.now
                // A refusal of this save puts the delete back (records seed 22349).
                if !pending.deleteSent && !pending.saveUnanswered {
                    replacedDelete = DeleteReplacedBySave(write: deleteWrite, removedFields: pending.removedFields,
                                                          deletedAt: pending.deletedAt, saveReplacedByDelete: pending.saveReplacedByDelete)
                }
                for name in server.fieldNames where server.fields[name]?.value != nil {
                    record.fields[name] = StoredField(value: nil, write: write, modifiedAt: removedAt, removedByDelete: true)
                    changedFields.insert(name)
                    removed.append(name)
                }
            }
        }
        var shown = removed
        for assignment in change.fields {
            if record.fields[assignment.name]?.value == assignment.value { continue }
            // The device's own pending value replaced here may have to come back when this write
            // is refused (records seed 1169: an atomic call; seed 1983: a plain save refused for
            // the record's size), or be reported with a refused creation (seed 3358).
            rememberReplacedPendingField(key, assignment.name, record.fields[assignment.name], by: write)
            record.fields[assignment.name] = StoredField(value: assignment.value, write: write, modifiedAt: context.now)
            changedFields.insert(assignment.name)
            if !shown.contains(assignment.name) { shown.append(assignment.name) }
        }
        guard created || !shown.isEmpty else { return false }
        // A fetched deletion held for another record's answer predates this edit, which wins
        // over it as over any deletion it meets: the save goes up, and the cloud's answer tells
        // (`unknownItem`: re-uploaded as a new record). Released after the save was answered,
        // the deletion removed the record the save had made again (records seed 5752).
        if !state.heldDeletions.isEmpty { state.heldDeletions[key] = nil }
        state.table[local: key] = record
        if created {
            context.observe(.visible(item: item(key), value: .recordExists(type: record.type), write: write, cause: .local))
        }
        for name in shown { show(key, field: name, record.fields[name], .local, &context) }
        enqueue(key, fields: changedFields, atomicGroup: atomicGroup)
        if let replacedDelete { state.pending[key]!.deleteReplacedBySave = replacedDelete }
        return true
    }

    /// A write is about to replace this field: when the device's own earlier value is still
    /// pending, keep it so a refusal can put it back (or report it, with a refused creation).
    private mutating func rememberReplacedPendingField(_ key: RecordKey, _ name: String, _ current: StoredField?, by write: WriteID) {
        guard let current, current.write != write, var change = state.pending[key], case .save(let fields) = change.kind, fields.contains(name) else { return }
        change.replacedByAtomicCall[name, default: []].append(ReplacedPendingField(replacedBy: write, earlier: current))
        state.pending[key] = change
    }

    /// Deletes a record locally, and the records that reference it with `deleteSelf` (the same
    /// write deletes them all, observing what this device had seen of each).
    mutating func deleteLocally(_ key: RecordKey, write: WriteID, atomicGroup: WriteID?, _ context: inout EngineContext) {
        // Each record with the record whose delete reached it (nil for the one the user deleted).
        var queue: [(key: RecordKey, cascadeOf: String?)] = [(key, nil)]
        while !queue.isEmpty {
            let (current, cascadeOf) = queue.removeFirst()
            guard state.table[local: current] != nil else { continue }
            let dependents = state.table.localKeys.filter { other in
                other.database == current.database && other.zone == current.zone && other != current
                    && state.table[local: other]!.fields.values.contains { $0.value.map { RecordEngine.references($0, current.name) } ?? false }
            }.sorted()
            let shownFields = state.table[local: current]!.fieldNames.filter { state.table[local: current]!.fields[$0]?.value != nil }
            let before = state.table[local: current]!
            removeLocal(current, write: write, .local, &context)
            // The cloud may have it: it was fetched or saved, or a save of it went out and its
            // answer has not come (on the wire, or lost): then the delete must go out too.
            if state.table[server: current] != nil || state.pending[current]?.saveUnanswered == true {
                if var change = state.pending[current] {
                    var replacedSave: SaveReplacedByDelete?
                    if case .save(let fields) = change.kind, !fields.isEmpty, !change.saveUnanswered {
                        replacedSave = SaveReplacedByDelete(fields: fields, local: before)
                    }
                    // A delete of its own replaces the whole change: the save of an atomic call
                    // refused for space (kept pending until room frees, SPEC §4.3) no longer goes
                    // out with that call, so the delete does not wait for room the call's other
                    // records need (records seed 12953: held in E's call, refused for space on
                    // r0, E's delete of r1 never reached the cloud, which kept the record). A
                    // save in doubt keeps its call (the delete goes out in its place), and so
                    // does a call not refused: the delete goes, or is refused, with it.
                    if atomicGroup == nil, !change.saveUnanswered, let group = change.atomicGroup,
                       !atomicCalls(of: group).isDisjoint(with: state.quotaRejected) { change.atomicGroup = nil }
                    change.kind = .delete(write: write)
                    change.saveReplacedByDelete = replacedSave
                    change.reupload = false
                    change.quotaBlocked = false
                    change.removedFields = shownFields
                    change.deletedAt = context.now
                    change.cascadeOf = cascadeOf
                    state.pending[current] = change
                    joinAtomicGroup(current, atomicGroup)
                } else {
                    state.nextPendingOrder += 1
                    var change = PendingRecordChange(order: state.nextPendingOrder, kind: .delete(write: write), atomicGroup: atomicGroup)
                    change.removedFields = shownFields
                    change.deletedAt = context.now
                    change.cascadeOf = cascadeOf
                    state.pending[current] = change
                }
            } else {
                // Never sent to the cloud: nothing to delete there.
                state.pending[current] = nil
            }
            queue.append(contentsOf: dependents.map { ($0, current.name) })
        }
        unblockQuota()
    }

    /// Whether a value holds a `deleteSelf` reference to `target`.
    static func references(_ value: FieldValue, _ target: String) -> Bool {
        switch value {
        case .reference(let name, let action): return action == .deleteSelf && name == target
        case .list(let elements): return elements.contains { references($0, target) }
        case .string, .int, .double, .bytes, .date, .location, .asset: return false
        }
    }

    /// Forgets everything about a zone's records except what the app sees (the caller handles that).
    mutating func forgetZoneRecords(_ zoneKey: ZoneKey) {
        for key in state.pending.keys where key.zoneKey == zoneKey { state.pending[key] = nil }
        for key in state.table.serverKeys where key.zoneKey == zoneKey { state.table[server: key] = nil }
        forgetFetchedVersions(zoneKey)
        for key in state.conflictTags.keys where key.zoneKey == zoneKey { state.conflictTags[key] = nil }
        state.heldZoneDeletions[zoneKey] = nil
    }

    /// Forgets the versions of a zone's records fetched or answered and not shown yet (in doubt,
    /// held for an answer, held for the next fetch): they are of a zone deleted since. With
    /// `incarnation` (the one deleted), only versions of it or of an earlier one go: a version of
    /// the zone created again since is no deleted zone's, and no later fetch brings it again
    /// (records seed 4745: a held deletion applied after the zone made again had been fetched
    /// forgot that zone's record, and the device diverged).
    mutating func forgetFetchedVersions(_ zoneKey: ZoneKey, upToIncarnation incarnation: UInt64? = nil) {
        func deleted(_ key: RecordKey, _ version: ServerRecord) -> Bool {
            key.zoneKey == zoneKey && version.zoneIncarnation <= (incarnation ?? .max)
        }
        state.fetchedWhileCreating = state.fetchedWhileCreating.filter { !deleted($0.key, $0.value) }
        state.heldFetched = state.heldFetched.filter { !deleted($0.key, $0.value) }
        // A held deletion names no incarnation: its record is gone with the zone either way.
        state.heldDeletions = state.heldDeletions.filter { $0.key.zoneKey != zoneKey }
        state.heldUntilFetch = state.heldUntilFetch.filter { !deleted($0.key, $0.value) }
    }
}
