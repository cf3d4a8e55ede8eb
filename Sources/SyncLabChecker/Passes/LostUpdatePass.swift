import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `lostUpdate` (SPEC §6): per accepted write, per item it was lost on (`SurvivalPass`), one
/// anomaly saying which write replaced it and why, in one sentence.
struct LostUpdatePass {
    private(set) var anomalies: [Anomaly] = []

    mutating func run(_ context: inout CheckContext, lostItems: [[Int32]], invertedBy: [Int32]) {
        for operation in context.history.operations where operation.outcome == .accepted {
            let write = context.writeIndex(operation.write)
            let info = context.writes[Int(write)]
            guard let first = info.touches.first else { continue }
            let item = context.items[first.item]
            // A write that survives is not lost, even if its engine gave it up: an upload the
            // cloud applied whose answer never came back is reported discarded by the device.
            let lost = lostItems[Int(write)]
            guard !info.rejected, !lost.isEmpty else { continue }
            let name = context.name(write), device = context.deviceName(operation.device)
            let discarded = discardsByItem(of: info, context)
            // A pending change its device gave up (every item of it, or a delete, which its
            // device gives up as one record): one anomaly.
            if let first = discarded.first, discarded.count >= info.touches.count || info.isDelete {
                let discard = context.discards[Int(first)]
                var anomaly = context.anomaly(.lostUpdate, discard.item, device: device, at: operation.at,
                    explanation: "\(device)'s write \(name) (\(operation.summary)) never reached the cloud: \(discard.reason).", write: name)
                anomaly.items = lostDiscardedNames(discarded, lost: lost, context)
                anomalies.append(anomaly)
                continue
            }
            // A delete that lost to a concurrent edit loses no data: the edit wins and the item
            // comes back (SPEC §4.2, §4.3; for KVS the checker reports a resurrection). Only
            // values can be lost.
            // A save that only sets record fields to null deletes no record: its removals are
            // values that can be lost like any other (`CheckContext.isFieldRemoval`).
            let removesOnlyFields = item.store == .records && info.touches.allSatisfy { context.isFieldRemoval($0.item, by: info) }
            if info.isDelete && item.store != .kvs && !removesOnlyFields { continue }
            // KVS has no edit-wins rule (SPEC §4.1): a removal that an unseen set beat is a
            // write lost like any other (and its key's return a resurrection).
            var reported = item.store == .kvs ? lost : lost.filter { info.value(on: $0) != .absent || context.isFieldRemoval($0, by: info) }
            // A record's fields are its items; the record itself (its existence) is reported
            // only when none of the write's fields was lost, so a create counts once.
            if item.store == .records {
                let fields = reported.filter { !context.items[$0].field.isEmpty }
                if !fields.isEmpty { reported = fields }
            }
            for lostItem in reported {
                // An item the cloud discarded with the rest of its call (SPEC §4.1: a call is
                // atomic): the cloud said why.
                if let index = discarded.first(where: { context.discards[Int($0)].itemIndex == lostItem }) {
                    let which = info.touches.count > 1 ? " on \(context.items[lostItem].displayName)" : ""
                    anomalies.append(context.anomaly(.lostUpdate, context.items[lostItem], device: device, at: operation.at,
                        explanation: "\(device)'s write \(name) (\(operation.summary) at \(SimDuration(microseconds: operation.at.microseconds)))\(which) was lost: \(context.discards[Int(index)].reason).",
                        write: name))
                    continue
                }
                let sentence = explain(write, operation, lostItem, invertedBy: invertedBy, &context)
                anomalies.append(context.anomaly(.lostUpdate, context.items[lostItem], device: device, at: operation.at,
                    explanation: sentence.text, write: name, replacedBy: sentence.replacer.map { context.history.name(of: $0) }))
            }
        }
    }

    /// Every item a discarded write lost, when it lost several (a `kvs.setMany`, a save of
    /// several fields, an atomic call over several records), so `expect.anomalies` and
    /// `noAnomalies` match each of them, not only the one the anomaly is named after: each
    /// record by its name and each field as `ZONE/NAME.field`, as `QuotaPass` lists a refused
    /// write's items. Empty when the write lost one value (one key, one field, or one record
    /// created with one field: a record's existence is not a value of its own).
    private func lostDiscardedNames(_ discarded: [Int32], lost: [Int32], _ context: CheckContext) -> [String] {
        let lostSet = Set(lost)
        var names: [String] = []
        var seen: Set<String> = []
        var values: Set<String> = []
        var recordsWithFields: Set<String> = []
        for index in discarded {
            let discard = context.discards[Int(index)]
            guard lostSet.contains(discard.itemIndex) else { continue }
            for name in [discard.item.name, discard.item.displayName] where seen.insert(name).inserted { names.append(name) }
            values.insert(discard.item.displayName)
            if !discard.item.field.isEmpty { recordsWithFields.insert(discard.item.name) }
        }
        return values.subtracting(recordsWithFields).count > 1 ? names : []
    }

    /// The indexes in `context.discards` of every discard of the write, in the order reported.
    private func discardsByItem(of info: WriteInfo, _ context: CheckContext) -> [Int32] {
        var result: [Int32] = []
        var next = info.discard
        while next >= 0 { result.append(next); next = context.discards[Int(next)].next }
        return result
    }

    /// Why `write` was lost on `item`, and the write that replaced it.
    private func explain(_ write: Int32, _ operation: OperationRecord, _ item: Int32, invertedBy: [Int32],
                         _ context: inout CheckContext) -> (text: String, replacer: WriteID?) {
        let info = context.writes[Int(write)]
        let key = context.items[item]
        let name = context.name(write), device = context.deviceName(operation.device)
        let finalWrite = context.finalWrite(item)
        // The write that overwrote it: the one last-writer-wins chose over it, else the first
        // its own device showed in its place that had not seen it, else the final value.
        let decision = firstDecision(over: write, on: item, &context) ?? firstDecision(over: write, on: nil, &context)
        var seenReplacing: WriteID?
        for replacing in context.replacedOnDevice[writeItemKey(write: write, item: item)] ?? [] where !context.graph.observes(replacing, write) {
            seenReplacing = context.graph[replacing]
            break
        }
        var replacer = decision.map { context.graph[$0.chosen] } ?? seenReplacing ?? finalWrite
        // The value a device last showed can be this very write, on a device whose view is not
        // judged at the end (signed out, crashed, app deleted): nothing replaced it.
        var heldOnlyByAnUnjudgedDevice = replacer == context.graph[write]
        // Or nothing beat it and its own device, not judged at the end, still shows it (or a
        // write of its own built on it) while the cloud keeps an older value: it never reached
        // the cloud. The final value is no write that replaced it, let alone wrote back over it.
        // A KVS write the cloud never decided (no comparison over it) that its device, judged
        // at the end, still shows: a removal never uploaded (offline at the end, say), which a
        // device view does not keep alive as it keeps a value (ARCHITECTURE.md, roots of survives).
        var unsentOnItsDevice = false
        if decision == nil, seenReplacing == nil, let stranded = strandedHolder(of: write, on: item, by: operation.device, &context) {
            if stranded.judged {
                unsentOnItsDevice = key.store == .kvs
            } else {
                heldOnlyByAnUnjudgedDevice = stranded.holder == write
                replacer = context.graph[stranded.holder]
            }
        }
        if heldOnlyByAnUnjudgedDevice || unsentOnItsDevice { replacer = nil }
        // A record field gone with its record, on devices that never showed the field: the
        // delete that removed the record (shown for its existence item) removed the field too
        // (records seed 26140: a zone deleted after the save reached the cloud, the saving device
        // told only by zoneNotFound, which names no write).
        if replacer == nil, !heldOnlyByAnUnjudgedDevice, key.store == .records, !key.field.isEmpty,
           let record = context.items.existingID(of: ItemKey(account: key.account, store: key.store, name: key.name)),
           let deletion = context.finalWrite(record), let index = context.graph.existingIndex(of: deletion),
           index != write, !context.graph.observes(index, write), recordDeletion(by: deletion, of: key, &context) != nil {
            replacer = deletion
        }
        // A write of several items says which one this is (each is its own anomaly).
        let which = info.touches.count > 1 ? " on \(key.displayName)" : ""
        var sentence = "\(device)'s write \(name) (\(operation.summary) at \(SimDuration(microseconds: operation.at.microseconds)))\(which) was lost: "
        if unsentOnItsDevice {
            sentence += "it never reached the cloud: at the end \(device) still showed it, not yet uploaded (\(device)'s view differs from the cloud's)"
        } else if invertedBy[Int(write)] >= 0 {
            let inversion = context.decisions[Int(invertedBy[Int(write)])]
            sentence += "last-writer-wins by \(inversion.rule) kept \(context.describe(inversion.chosen)), which \(name) had already seen, because clock skew made it look newer"
        } else if let decision {
            sentence += "last-writer-wins by \(decision.rule) kept \(context.describe(decision.chosen)), which had not seen it"
            if info.inConflict && key.store == .documents {
                sentence += ", and the conflict version holding \(name) was later removed"
                if let copy = discardedCopy(carrying: write, besides: item, &context) { sentence += copy }
            }
        } else if let replacer, info.resolution >= 0 {
            let resolution = context.resolutions[Int(info.resolution)]
            sentence += "\(resolution.device) resolved a conflict over it with policy \(resolution.policy), which "
            sentence += context.graph.observes(write, replacer)
                ? "put back the older value of \(context.describe(replacer)), which \(name) had replaced"
                : "kept \(context.describe(replacer)), a value that had not seen it"
        } else if let replacer, context.graph.observes(write, replacer) {
            // An older value the write had itself replaced came back: a save that had not
            // seen the write sent the old value again (allKeys, changedKeys, clientWins).
            sentence += "the older value of \(context.describe(replacer)), which \(name) had replaced, was written back over it by a save that had not seen it"
        } else if let replacer, let how = recordDeletion(by: replacer, of: key, &context) {
            // SPEC §4.3: deletes carry no change tag, so a delete removes edits it never saw.
            sentence += "\(context.describe(replacer)) deleted it\(how) without having seen it, as a delete carries no change tag"
        } else if let replacer, let holder = context.graph.existingIndex(of: replacer), context.graph.observes(holder, write) {
            // A write built on it holds the item, yet it is lost: that write stands only on a
            // device whose view is not judged (the cloud's final value would have kept it).
            sentence += "\(context.describe(replacer)), built on it, replaced it, but at the end stood only on a device whose view is not judged (signed out, crashed or without its app)"
        } else if let replacer {
            sentence += "\(context.describe(replacer)) replaced it without having seen it"
            if info.inConflict { sentence += " when the conflict was resolved" }
        } else if heldOnlyByAnUnjudgedDevice {
            sentence += "nothing replaced it, but at the end it stood only on a device whose view is not judged (signed out, crashed or without its app)"
        } else if info.resolution >= 0 {
            // Nothing replaced the value: the resolution kept a version without it.
            let resolution = context.resolutions[Int(info.resolution)]
            sentence += "\(resolution.device) resolved a conflict over it with policy \(resolution.policy), which kept a version without it"
        } else {
            sentence += "the item is gone and nothing that removed it had seen this write"
        }
        if let finalWrite, finalWrite != replacer, finalWrite != context.graph[write] { sentence += "; the final value is \(context.describe(finalWrite))" }
        return (sentence + ".", replacer)
    }

    /// The write `device` still shows for `item` at the end when that is `write` or a write
    /// built on it, and whether the device's view is judged (not signed out, crashed or without
    /// its app). Nil otherwise.
    private func strandedHolder(of write: Int32, on item: Int32, by device: DeviceID, _ context: inout CheckContext) -> (holder: Int32, judged: Bool)? {
        let index = Int(device.index)
        guard index < context.history.finalDeviceViews.count,
              let seen = context.shown[device: Int32(index), item: item], seen.write >= 0,
              seen.write == write || context.graph.observes(seen.write, write) else { return nil }
        return (seen.write, context.history.finalDeviceViews[index] != nil)
    }

    /// Where a `keepBoth` copy that carried `write` to another document went, when its device
    /// discarded it pending (app deletion, account switch): the copy was refused for space and
    /// the resolve removed the conflict version without waiting for it (ARCHITECTURE.md, spec22),
    /// so that discard is what lost the write. Nil when no such copy was discarded.
    private func discardedCopy(carrying write: Int32, besides item: Int32, _ context: inout CheckContext) -> String? {
        for copy in context.discardedDerived where copy != write && context.graph.observes(copy, write) {
            let discard = context.discards[Int(context.writes[Int(copy)].discard)]
            guard discard.itemIndex != item, discard.item.store == .documents else { continue }
            return "; its copy \(context.name(copy)) on \"\(discard.item.displayName)\" was then \(discard.reason) before it reached the cloud"
        }
        return nil
    }

    /// When `replacer` deleted the record of `key` (a record field): "" for a delete of that
    /// record, " with its zone" for a zone deletion, " by cascade along a deleteSelf reference"
    /// when the delete named another record (its first touch) and reached this one through
    /// references; nil when it did not delete it.
    private func recordDeletion(by replacer: WriteID, of key: ItemKey, _ context: inout CheckContext) -> String? {
        guard key.store == .records, let index = context.graph.existingIndex(of: replacer) else { return nil }
        let info = context.writes[Int(index)]
        guard context.deletesRecord(named: key.name, info), let first = info.touches.first else { return nil }
        if info.operation >= 0, context.history.operations[Int(info.operation)].op == "zone.delete" { return " with its zone" }
        return context.items[first.item].name == key.name ? "" : " by cascade along a deleteSelf reference"
    }

    /// The first last-writer-wins choice over `write` (on `item`, or on any item when nil) whose
    /// winner had not seen it.
    private func firstDecision(over write: Int32, on item: Int32?, _ context: inout CheckContext) -> CheckContext.Decision? {
        for index in context.writes[Int(write)].lostDecisions {
            let decision = context.decisions[Int(index)]
            if let item, decision.item != item { continue }
            if !context.graph.observes(decision.chosen, write) { return decision }
        }
        return nil
    }
}
