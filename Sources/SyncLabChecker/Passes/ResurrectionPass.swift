import SyncLabProtocol
import SyncLabHistory

/// `resurrection` (SPEC §6): a deleted item back without a write that observed the delete.
/// The edit-wins rules of §4.2 and §4.3 are not resurrection; for KVS, which has none, a value
/// set without seeing a removal that won last-writer-wins is.
struct ResurrectionPass {
    private(set) var anomalies: [Anomaly] = []

    mutating func run(_ context: inout CheckContext) {
        let history = context.history
        // Every accepted write per item (rejected ones too): a later write that saw the delete.
        var writesByItem: [[Int32]] = Array(repeating: [], count: context.items.count)
        for operation in history.operations where operation.outcome == .accepted {
            let write = context.writeIndex(operation.write)
            for touch in context.writes[Int(write)].touches { writesByItem[Int(touch.item)].append(write) }
        }
        for operation in history.operations where operation.outcome == .accepted {
            let write = context.writeIndex(operation.write)
            let info = context.writes[Int(write)]
            // A delete the cloud refused (a permission failure, say) deleted nothing; the app was told.
            if info.rejected || info.touches.isEmpty { continue }
            // A delete its device gave up before the cloud had it (sign-out, account switch, app
            // deletion) deleted nothing there: the item was never gone, so it cannot come back.
            // The discard itself is reported (a lost update where the store counts one).
            if info.discard >= 0 { continue }
            // Likewise a KVS removal the cloud never applied: not its key's final state, yet no
            // comparison ever chose a write over it, so it never reached the cloud (still pending
            // at the end on a device signed out, crashed or offline). The key was never gone
            // there; the removal itself is a lost update.
            if info.lostDecisions.isEmpty, info.touches.allSatisfy({ context.items[$0.item].store == .kvs }) { continue }
            // A record comes back as a whole: one resurrection for the record, not one per field.
            let deletedRecords = Set(info.touches.filter { $0.value == .absent }.map { context.items[$0.item] }
                .filter { $0.store == .records && $0.field.isEmpty }.map(\.name))
            for touch in info.touches where touch.value == .absent {
                let item = context.items[touch.item]
                if item.store == .records && !item.field.isEmpty && deletedRecords.contains(item.name) { continue }
                guard let final = context.finalByItem[Int(touch.item)], let finalWrite = final.write, finalWrite != operation.write,
                      final.value != .absent else { continue }
                let deviceName = context.deviceName(operation.device)
                let explanation: String
                var isKVSReturn = false
                if context.graph.observes(write, finalWrite) {
                    explanation = "\(item.displayName) is back with \(history.name(of: finalWrite)), a value that \(deviceName)'s delete \(history.name(of: operation.write)) had seen and removed."
                } else if item.store == .kvs, !observed(write, by: finalWrite, &context) {
                    isKVSReturn = true
                    // KVS has no edit-wins rule (SPEC §4.1): a value made without seeing the
                    // removal won last-writer-wins and brought the key back.
                    explanation = "\(item.displayName) is back with \(history.name(of: finalWrite)), a value set without seeing \(deviceName)'s removal \(history.name(of: operation.write)), which last-writer-wins let replace it."
                } else {
                    continue
                }
                // A later write that had seen the delete and touched the item brought it back on
                // purpose (a re-creation, or SPEC §4.3's own pending delete followed by a save).
                if writesByItem[Int(touch.item)].contains(where: { $0 != write && context.graph.observes($0, write) }) { continue }
                let deleteName = history.name(of: operation.write), returnName = history.name(of: finalWrite)
                anomalies.append(context.anomaly(.resurrection, item, device: deviceName, at: operation.at, explanation: explanation,
                    // For a KVS key brought back, the removal is what was undone and the set what did it.
                    write: isKVSReturn ? deleteName : returnName, replacedBy: isKVSReturn ? returnName : deleteName))
            }
        }
    }

    /// Did `finalWrite` (which may not be in the graph) observe `write`?
    private func observed(_ write: Int32, by finalWrite: WriteID, _ context: inout CheckContext) -> Bool {
        guard let final = context.graph.existingIndex(of: finalWrite) else { return false }
        return context.graph.observes(final, write)
    }
}
