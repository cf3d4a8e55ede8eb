import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// A server version of a record meets this device's pending change (a `serverRecordChanged`,
    /// or a fetched change): the app's policy (`engine.records.conflict`) decides.
    ///
    /// Fields the server version already has with this device's own write ids are acknowledged
    /// first; if nothing else changed there is no conflict. The policy runs once per server
    /// version: a second `serverRecordChanged` carrying the same version only rebases.
    mutating func resolveConflict(_ key: RecordKey, _ server: ServerRecord, detail: String, _ context: inout EngineContext) {
        let ancestor = state.table[server: key]
        guard var change = state.pending[key] else {
            state.table[server: key] = server
            if applyServer(key, server, .fetch, &context) { fetchedItems.append(key.itemName) }
            return
        }
        let firstTime = state.conflictTags[key] != server.changeTag
        switch change.kind {
        case .delete(let write):
            // Deletes are unconditional: the pending delete will remove the other side's edit.
            if firstTime && ancestor?.changeTag != server.changeTag {
                let writes = ([write] + otherSideWrites(server, ancestor)).sortedUnique()
                context.observe(.conflictDetected(item: item(key), writes: writes, detail: "\(detail): pending delete"))
                context.observe(.conflictShown(item: item(key), writes: writes, detail: "delete is unconditional"))
            }
            state.conflictTags[key] = server.changeTag
            state.table[server: key] = server
            return
        case .save(var fields):
            guard var local = state.table[local: key] else { state.pending[key] = nil; return }
            var droppedGroup: WriteID?
            for name in fields.sorted() where server.fields[name] != nil && server.fields[name]?.write == local.fields[name]?.write {
                fields.remove(name)
            }
            let otherChanged = changedByOtherSide(server, ancestor, local)
            let conflict = firstTime && !otherChanged.isEmpty && !(fields.isEmpty && !isCreation(key))
            if conflict {
                let policy = identity.settings.records.conflict
                let ours = fields.sorted().compactMap { local.fields[$0]?.write }
                let writes = (ours + otherChanged.compactMap { server.fields[$0]?.write } + [server.existenceWrite]).sortedUnique()
                context.observe(.conflictDetected(item: item(key), writes: writes, detail: detail))
                context.observe(.conflictShown(item: item(key), writes: writes, detail: "policy \(policy.rawValue)", resolvedBy: ConflictResolver(policy.rawValue)))
                context.emit(.notify(AppNotification(store: .records, reason: "conflict", items: [key.itemName])))
                switch policy {
                case .serverWins:
                    fields = []
                    droppedGroup = change.atomicGroup
                case .clientWins:
                    // Every local field goes onto the server record, with its original write id.
                    fields = Set(local.fields.keys.filter { local.fields[$0] != server.fields[$0] })
                case .merge:
                    merge(key, server, ancestor, &local, &fields, otherChanged: otherChanged, &context)
                }
                state.table[local: key] = local
            }
            state.conflictTags[key] = server.changeTag
            state.table[server: key] = server
            change.reupload = false
            change.kind = .save(fields: fields)
            state.pending[key] = fields.isEmpty ? nil : change
            applyServer(key, server, .resolution, &context)
            if let droppedGroup { dropAtomicGroup(droppedGroup, &context) }
        }
    }

    /// `serverWins` dropped one record's part of an atomic call. The call is all or nothing
    /// (SPEC §4.3), so the rest of it is dropped too, in the same step: the app never shows part
    /// of it, and no other device ever receives part of it. What later, separate calls changed on
    /// those records stays pending and goes out on its own.
    private mutating func dropAtomicGroup(_ group: WriteID, _ context: inout EngineContext) {
        let names = revert(atomicCalls(of: group), cause: .resolution, &context) { _, _, _ in }
        for key in orderedPendingKeys() where state.pending[key]?.atomicGroup == group {
            state.pending[key]!.atomicGroup = nil
        }
        state.joinedAtomicCalls[group] = nil
        guard !names.isEmpty else { return }
        context.log("atomicGroupDropped", [("write", "\(group)"), ("records", names.joined(separator: ","))])
        context.emit(.notify(AppNotification(store: .records, reason: "conflict", items: names)))
    }

    /// Three-way merge per field against the ancestor: a field changed on one side takes that
    /// side; changed on both with equal values is one merged write; changed on both with
    /// different values takes the later edit by the editing devices' clocks.
    private mutating func merge(_ key: RecordKey, _ server: ServerRecord, _ ancestor: ServerRecord?, _ local: inout LocalRecord,
                                _ fields: inout Set<String>, otherChanged: [String], _ context: inout EngineContext) {
        for name in otherChanged where fields.contains(name) {
            guard let mine = local.fields[name] else { continue }
            let theirs = server.fields[name]
            let theirWrite = theirs?.write ?? server.existenceWrite
            if mine.value == theirs?.value {
                // The same change on both sides: one merged value descending from both.
                let merged = nextDerivedWrite(&context)
                let value: ItemValue = mine.value.map { .field($0) } ?? .absent
                context.observe(.derivedWrite(write: merged, item: item(key, field: name), value: value, parents: [mine.write, theirWrite].sortedUnique(), why: "merge: same value on both sides"))
                local.fields[name] = StoredField(value: mine.value, write: merged, modifiedAt: max(mine.modifiedAt, theirs?.modifiedAt ?? mine.modifiedAt))
                show(key, field: name, local.fields[name], .resolution, &context)
                continue
            }
            // A record deleted and made again elsewhere simply lacks the deleted one's fields:
            // the delete took them, not an edit made when the record was made again, and an
            // edit wins over a delete (SPEC §4.3), so this side's edit stays (records seed 4745:
            // taken for an edit at the re-creation's date, the absence beat the edits of an
            // atomic call whose other record went up, and the call showed in part).
            if theirs == nil, let ancestor, ancestor.existenceWrite != server.existenceWrite { continue }
            let theirTime = theirs?.modifiedAt ?? server.modifiedAt
            let mineLater = (mine.modifiedAt, mine.write) > (theirTime, theirWrite)
            let rule = "record field modification date"
            if mineLater {
                context.observe(.lastWriterWins(item: item(key, field: name), chosen: mine.write, over: theirWrite, rule: rule))
            } else {
                context.observe(.lastWriterWins(item: item(key, field: name), chosen: theirWrite, over: mine.write, rule: rule))
                fields.remove(name)
            }
        }
    }

    /// Fields the server version changed relative to the ancestor that are not this device's own
    /// writes, sorted.
    ///
    /// A removal on the server (a field written absent) against an ancestor that lacked the field
    /// too is no change: equal values never conflict (SPEC §4.3). Without an ancestor — a device
    /// that never fetched the record, or was reinstalled, saving it as new — nothing says the
    /// field was absent before, so a user's removal written by another device is that device's
    /// change and goes through the policy like any other (records seed 191: counted as
    /// unchanged, the device's value silently replaced the removal, a loss no decision
    /// documented). A removal a delete made, carried by the save that replaced the delete, stays
    /// no change: an edit wins over a delete (records seed 2505).
    private func changedByOtherSide(_ server: ServerRecord, _ ancestor: ServerRecord?, _ local: LocalRecord) -> [String] {
        var names = Set(server.fields.keys)
        if let ancestor { names.formUnion(ancestor.fields.keys) }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.filter { name in
            let now = server.fields[name], before = ancestor?.fields[name]
            if now?.write == before?.write { return false }
            if now?.value == nil && before?.value == nil && (now?.removedByDelete ?? true) { return false }
            return now?.write != local.fields[name]?.write
        }
    }

    private func otherSideWrites(_ server: ServerRecord, _ ancestor: ServerRecord?) -> [WriteID] {
        server.fieldNames.compactMap { name in server.fields[name]?.write == ancestor?.fields[name]?.write ? nil : server.fields[name]?.write }
    }

    private func isCreation(_ key: RecordKey) -> Bool { state.table[server: key] == nil }

    /// The record is gone from the cloud (deleted elsewhere, or its zone was) while this device
    /// has a pending save: it is uploaded again as a new record, as Apple's CKSyncEngine sample
    /// does. Fields the device did not change, and the existence item, are re-stamped with a
    /// derived write descending from the pending edits, so the record comes back by a write made
    /// after the delete (the edit wins; no resurrection). `wasInCloud` says the cloud held the
    /// record even though this device has no server copy of it (its creation was answered
    /// "saved, then deleted": the delete may have seen it, so the existence is re-stamped too).
    mutating func prepareReupload(_ key: RecordKey, asConflict: Bool, detail: String, wasInCloud: Bool = false,
                                  _ context: inout EngineContext) {
        guard var change = state.pending[key] else { return }
        guard case .save(let fields) = change.kind, var local = state.table[local: key] else {
            state.pending[key] = nil
            state.table[server: key] = nil
            return
        }
        let editWrites = fields.sorted().compactMap { local.fields[$0]?.write }.sortedUnique()
        if asConflict && state.conflictTags[key] != RecordEngineState.goneTag {
            let writes = editWrites.isEmpty ? [local.existenceWrite] : editWrites
            context.observe(.conflictDetected(item: item(key), writes: writes, detail: detail))
            context.observe(.conflictShown(item: item(key), writes: writes, detail: "re-upload as a new record"))
            context.emit(.notify(AppNotification(store: .records, reason: "conflict", items: [key.itemName])))
            state.conflictTags[key] = RecordEngineState.goneTag
        }
        if wasInCloud || state.table[server: key] != nil {
            let restamp = nextDerivedWrite(&context)
            for name in local.fieldNames where !fields.contains(name) {
                guard let field = local.fields[name], let value = field.value else { continue }
                context.observe(.derivedWrite(write: restamp, item: item(key, field: name), value: .field(value),
                                              parents: ([field.write] + editWrites).sortedUnique(), why: "re-upload after \(detail)"))
                local.fields[name] = StoredField(value: value, write: restamp, modifiedAt: field.modifiedAt)
                show(key, field: name, local.fields[name], .resolution, &context)
            }
            context.observe(.derivedWrite(write: restamp, item: item(key), value: .recordExists(type: local.type),
                                          parents: ([local.existenceWrite] + editWrites).sortedUnique(), why: "re-upload after \(detail)"))
            local.existenceWrite = restamp
            context.observe(.visible(item: item(key), value: .recordExists(type: local.type), write: restamp, cause: .resolution))
        }
        // A new record needs no absent fields, except a user's removal among the pending edits:
        // it goes up as that write, so a device that never fetched the record and saves the field
        // meets it in its merge, a decision logged, instead of replacing it silently (records
        // seed 2865: the removal dropped here, the other device's value took the field unseen).
        for name in local.fields.keys where local.fields[name]?.value == nil {
            if fields.contains(name), local.fields[name]?.removedByDelete == false { continue }
            local.fields[name] = nil
        }
        state.table[local: key] = local
        change.kind = .save(fields: Set(local.fields.keys))
        change.reupload = true
        // The record is gone from the cloud: whatever was in doubt, everything goes up anew.
        change.inDoubt = nil
        state.pending[key] = change
        state.table[server: key] = nil
    }
}

extension Array where Element == WriteID {
    /// Sorted, without repeats.
    func sortedUnique() -> [WriteID] {
        var result: [WriteID] = []
        for write in sorted() where result.last != write { result.append(write) }
        return result
    }
}
