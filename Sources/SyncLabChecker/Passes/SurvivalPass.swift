import SyncLabProtocol

/// Per write, the items it was lost on (SPEC §6): not the final value, not in `observed` of
/// it, surviving nowhere. A value survives as the item's final value, as a value a device
/// still shows, as an unresolved conflict version, through a merge or a conflict copy that
/// lists it, and through a delete that had seen it (removed on purpose is not lost).
///
/// KVS keys and record fields are judged one item at a time: a write that touched several
/// (`kvs.setMany`, a record save) can survive on one and be lost on another. Documents are
/// judged over the whole graph, because a conflict copy keeps a version alive on another
/// path; a document write whose content is the final content loses nothing either, nor one
/// whose content a surviving version it had not seen has (the same text saved twice).
struct SurvivalPass {
    /// Per dense write index, the items (ids) it was lost on, documents first, each group in
    /// `ItemKey` order.
    private(set) var lostItems: [[Int32]] = []

    /// - Complexity: O(Σ over items of what that item's survivors reach).
    mutating func run(_ context: inout CheckContext) {
        let history = context.history
        lostItems = Array(repeating: [], count: context.writes.count)
        var roots: [[Int32]] = Array(repeating: [], count: context.items.count)
        for (item, final) in context.finalByItem.enumerated() {
            if let write = final?.write, let index = context.graph.existingIndex(of: write) { roots[item].append(index) }
        }
        for survivors in history.survivingWrites {
            for write in survivors {
                guard let index = context.graph.existingIndex(of: write) else { continue }
                for touch in context.writes[Int(index)].touches { roots[Int(touch.item)].append(index) }
            }
        }
        for (view, items) in zip(history.finalDeviceViews, context.finalDeviceItems) {
            for (entry, item) in zip(view ?? [], items ?? []) {
                if let write = entry.write, let index = context.graph.existingIndex(of: write) { roots[Int(item)].append(index) }
            }
        }
        // Deletes a device still shows for items the cloud no longer has.
        let finalByItem = context.finalByItem
        context.shown.forEach { _, shownItem, seen in
            let item = Int(shownItem)
            if seen.value == .absent && seen.write >= 0 && finalByItem[item] == nil { roots[item].append(seen.write) }
        }
        var writesByItem: [[Int32]] = Array(repeating: [], count: context.items.count)
        for operation in history.operations where operation.outcome == .accepted {
            let write = context.writeIndex(operation.write)
            // A write refused with an error its app was told of is not judged (SPEC §6), but a
            // refused removal still removed on purpose what it was built on: a record change
            // refused for a limit stays pending and shown (SPEC §4.3), so the value it replaced
            // is no loss (records seed 5400: a removal refused for storage made it look lost).
            if context.writes[Int(write)].rejected {
                for touch in context.writes[Int(write)].touches where touch.value == .absent
                    && (context.items[touch.item].store == .kvs || context.isFieldRemoval(touch.item, by: context.writes[Int(write)])) {
                    roots[Int(touch.item)].append(contentsOf: context.graph.edges[Int(write)])
                }
                continue
            }
            for touch in context.writes[Int(write)].touches {
                writesByItem[Int(touch.item)].append(write)
                if touch.value == .absent {
                    // A delete its device gave up (SPEC §4.3: sign-out, app deletion) removed
                    // nothing where the item still exists: it is lost like a discarded save.
                    // Where the item is gone the delete (or a later one) did its work.
                    if context.writes[Int(write)].discard >= 0, let final = finalByItem[Int(touch.item)]?.value, final != .absent { continue }
                    // What a delete had seen was removed on purpose. A KVS removal or a record
                    // field set to null can itself still be lost (no edit-wins rule there), so
                    // only what it was built on counts.
                    if context.items[touch.item].store == .kvs || context.isFieldRemoval(touch.item, by: context.writes[Int(write)]) {
                        roots[Int(touch.item)].append(contentsOf: context.graph.edges[Int(write)])
                    } else {
                        roots[Int(touch.item)].append(write)
                    }
                }
            }
        }
        let items = context.items.sorted(writesByItem.indices.filter { !writesByItem[$0].isEmpty }.map { Int32($0) })
        let documents = items.filter { context.items[$0].store == .documents }
        // Every document's survivors at once (a conflict copy keeps a version alive on another path).
        let documentRoots = roots.indices.filter { context.items[Int32($0)].store == .documents }.flatMap { roots[$0] }
        context.graph.mark(from: documentRoots)
        // Unmarked writes whose content a surviving version of the same document has, with
        // those versions: judged below, once the marks are no longer needed (`observes` reuses them).
        var sameAsSurvivor: [(write: Int32, item: Int32, survivors: [Int32])] = []
        // Unmarked writes that survive by their content (the final content, or a survivor's it
        // had not seen), and the document writes found lost so far.
        var contentSurvivors: [Int32] = []
        var documentLost: [(write: Int32, item: Int32)] = []
        // Per document, the engines' derived writes (merges, copies): a surviving merge's content
        // is a surviving content too. Built on first need: most runs never ask.
        var derivedByItem: [[Int32]]?
        for item in documents {
            let final = context.finalByItem[Int(item)]
            var survivorsByContent: [ItemValue: [Int32]]?
            for write in writesByItem[Int(item)] where !context.graph.isMarked(write) {
                let value = context.writes[Int(write)].value(on: item)
                if let final, final.write != nil, value == final.value { contentSurvivors.append(write); continue }
                if let value, value != .absent {
                    if survivorsByContent == nil {
                        var byContent: [ItemValue: [Int32]] = [:]
                        if derivedByItem == nil { derivedByItem = Self.derivedDocumentWrites(context) }
                        for other in writesByItem[Int(item)] + derivedByItem![Int(item)] where context.graph.isMarked(other) {
                            if let content = context.writes[Int(other)].value(on: item), content != .absent { byContent[content, default: []].append(other) }
                        }
                        survivorsByContent = byContent
                    }
                    if let survivors = survivorsByContent?[value] {
                        sameAsSurvivor.append((write, item, survivors))
                        continue
                    }
                }
                documentLost.append((write, item))
            }
        }
        // Two devices that saved the same content without seeing each other (the cloud takes the
        // second as `identical`): what was built on one was built on that content, so the other
        // lost nothing. A version the write had seen does not count: saving back an older text
        // over an edit it saw is a change of its own, and losing it is a loss.
        for candidate in sameAsSurvivor {
            if candidate.survivors.allSatisfy({ context.graph.observes(candidate.write, $0) }) {
                documentLost.append((candidate.write, candidate.item))
            } else {
                contentSurvivors.append(candidate.write)
            }
        }
        // A write that survives by its content survives with what it was built on, as a
        // surviving version does: B saved "v" then "" while A saved "", and the cloud took B's
        // upload as `identical` to A's — B's "v" was replaced by B's own "", not lost to A's.
        if !contentSurvivors.isEmpty {
            context.graph.mark(from: documentRoots + contentSurvivors)
            documentLost.removeAll { context.graph.isMarked($0.write) }
        }
        for lost in documentLost { lostItems[Int(lost.write)].append(lost.item) }
        // The same key or field in every private account shares its survivors: a record saved
        // while signed out is uploaded to whichever account signs in next (SPEC §4.3), so it can
        // survive in another account than the one it was made under. (A value crossing accounts
        // any other way is an isolation violation, reported on its own.)
        var groupByKey: [ItemKey: Int] = [:]
        var groupOf: [Int] = Array(repeating: -1, count: context.items.count)
        var groupRoots: [[Int32]] = []
        // Per group, the item's final value in whichever account holds it (for a record's existence).
        var groupFinal: [ItemValue?] = []
        for item in 0..<context.items.count where !roots[item].isEmpty || !writesByItem[item].isEmpty {
            let key = context.items[Int32(item)]
            guard key.store != .documents else { continue }
            let shared = key.account == .publicDatabase ? key : ItemKey(account: AccountID(index: 0), store: key.store, name: key.name, field: key.field)
            let group = groupByKey[shared] ?? groupRoots.count
            if group == groupRoots.count { groupByKey[shared] = group; groupRoots.append([]) }
            groupOf[item] = group
            groupRoots[group].append(contentsOf: roots[item])
            if group == groupFinal.count { groupFinal.append(nil) }
            if groupFinal[group] == nil, let final = context.finalByItem[item]?.value, final != .absent { groupFinal[group] = final }
        }
        for item in items where context.items[item].store != .documents {
            context.graph.mark(from: groupRoots[groupOf[Int(item)]])
            // A record's existence is a fact, not a value someone typed: a write that created
            // (or re-created) a record that exists at the end with its type lost nothing there.
            let key = context.items[item]
            let existing = key.store == .records && key.field.isEmpty ? groupFinal[groupOf[Int(item)]] : nil
            // A record field whose final value is the value the write gave it lost nothing,
            // whichever write the cloud kept (SPEC §4.3: equal values never conflict), as a
            // document write whose content is the final content.
            let finalField = key.store == .records && !key.field.isEmpty ? groupFinal[groupOf[Int(item)]] ?? .absent : nil
            // Likewise in the field's own account, where its record still exists: the group's
            // value can be another account's (records seed 4785: C removed the title of its
            // record in 'other', which ends without one, while 'main''s record of that name
            // ends with A's title — the removal was reported lost to a value it never met).
            let ownField = finalField == nil ? nil : Self.finalFieldWhereRecordExists(item, context)
            for write in writesByItem[Int(item)] where !context.graph.isMarked(write) {
                if let existing, existing != .absent, context.writes[Int(write)].value(on: item) == existing { continue }
                if let finalField, context.writes[Int(write)].value(on: item) == finalField { continue }
                if let ownField, context.writes[Int(write)].value(on: item) == ownField { continue }
                lostItems[Int(write)].append(item)
            }
        }
    }

    /// A record field's final value in its own account (absent when the record has no such
    /// field), or nil when that account's record is gone at the end.
    static func finalFieldWhereRecordExists(_ item: Int32, _ context: CheckContext) -> ItemValue? {
        let key = context.items[item]
        guard let record = context.items.existingID(of: ItemKey(account: key.account, store: .records, name: key.name, field: "")),
              let exists = context.finalByItem[Int(record)]?.value, exists != .absent else { return nil }
        return context.finalByItem[Int(item)]?.value ?? .absent
    }

    /// Per item, the derived writes (an engine's merge or copy) that touch a document.
    /// - Complexity: O(writes + items).
    static func derivedDocumentWrites(_ context: CheckContext) -> [[Int32]] {
        var byItem: [[Int32]] = Array(repeating: [], count: context.items.count)
        for (index, write) in context.writes.enumerated() where write.derivedWhy >= 0 {
            for touch in write.touches where context.items[touch.item].store == .documents { byItem[Int(touch.item)].append(Int32(index)) }
        }
        return byItem
    }
}
