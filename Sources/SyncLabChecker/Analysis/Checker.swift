import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// The oracle (SPEC §6): judges a run from its `History` alone.
///
/// One pass over the facts rebuilds what each device showed over time, from which it derives
/// what every write was built on; the rest are reachability questions on that graph.
public struct Checker {
    public init() {}

    /// The device/item pair whose visible write the scan tracks.
    struct DeviceItem: Hashable { var device: DeviceID; var item: ItemKey }
    struct WriteItem: Hashable { var write: WriteID; var item: ItemKey }
    struct Shown { var write: WriteID?; var value: ItemValue }

    public func check(_ history: History) -> CheckReport {
        var graph = WriteGraph()
        var shown: [DeviceItem: Shown] = [:]
        var operationByWrite: [WriteID: OperationRecord] = [:]
        for operation in history.operations { operationByWrite[operation.write] = operation; _ = graph.index(of: operation.write) }

        // What each write touched (items in first-touched order), and what it replaced per item.
        var itemsByWrite: [WriteID: [ItemKey]] = [:]
        var valueByWriteItem: [WriteID: [ItemKey: ItemValue]] = [:]
        var replacedByWrite: [WriteID: [ItemKey: WriteID?]] = [:]
        var rejected: Set<WriteID> = []
        var discarded: [WriteID: (item: ItemKey, reason: String, at: SimInstant)] = [:]
        var lastWriterWins: [(item: ItemKey, chosen: WriteID, over: WriteID, rule: String, at: SimInstant)] = []
        var conflictCount = 0
        var conflictWrites: Set<WriteID> = []
        /// The last device whose app ran its conflict policy on a conflict involving the write.
        var resolvedBy: [WriteID: (device: String, policy: String)] = [:]
        var anomalies: [Anomaly] = []
        /// Quota violations by "write|limit": one per write, listing every item it had.
        var quotaAnomaly: [String: Int] = [:]
        var accountOf: [DeviceID: AccountID?] = [:]
        var notificationCounts: [String: [String: Int]] = [:]
        var notificationTotal = 0
        var derivedDevice: [WriteID: DeviceID] = [:]

        // Notification bookkeeping per (device, batch).
        var currentBatch = -1
        var fetchChanged: [DeviceID: Set<String>] = [:]
        var listed: [DeviceID: Set<String>] = [:]
        var notifiedAt: [DeviceID: SimInstant] = [:]
        var touchedAtomic: [DeviceID: Set<WriteID>] = [:]
        /// Per (write, item), the first few writes its own device then showed in its place: the
        /// first that had not seen it is what "replaced" it, in the device's own experience.
        var replacedOnDevice: [WriteItem: [WriteID]] = [:]
        /// The last write made to each item so far (for "later writes are no violation").
        var latestWrite: [ItemKey: WriteID] = [:]

        /// `B:1 (doc.save "note.txt" on B at 30s)`, or just the name for an engine's own write.
        func describe(_ write: WriteID) -> String {
            guard let operation = operationByWrite[write] else { return history.name(of: write) }
            return "\(history.name(of: write)) (\(operation.summary) on \(deviceName(operation.device)) at \(SimDuration(microseconds: operation.at.microseconds)))"
        }
        func deviceName(_ device: DeviceID) -> String {
            device.index >= 0 && Int(device.index) < history.deviceNames.count ? history.deviceNames[Int(device.index)] : "cloud"
        }
        func record(_ item: ItemKey, _ write: WriteID, _ value: ItemValue, replacing previous: WriteID?) {
            if itemsByWrite[write]?.contains(item) != true { itemsByWrite[write, default: []].append(item) }
            valueByWriteItem[write, default: [:]][item] = value
            if replacedByWrite[write]?[item] == nil { replacedByWrite[write, default: [:]][item] = .some(previous) }
            latestWrite[item] = write
        }

        func flushBatch(at time: SimInstant) {
            for device in fetchChanged.keys.sorted() {
                let changed = fetchChanged[device] ?? [], names = listed[device] ?? []
                for key in changed.subtracting(names).sorted() {
                    anomalies.append(Anomaly(kind: .missedNotification, store: .kvs, account: accountLabel(accountOf[device] ?? nil, history), item: key, field: nil,
                        device: deviceName(device), at: notifiedAt[device] ?? time,
                        explanation: "\(deviceName(device)) fetched a new value of \"\(key)\" but its change notification did not list the key."))
                }
            }
            for device in listed.keys.sorted() {
                let changed = fetchChanged[device] ?? [], names = listed[device] ?? []
                for key in names.subtracting(changed).sorted() {
                    anomalies.append(Anomaly(kind: .spuriousNotification, store: .kvs, account: accountLabel(accountOf[device] ?? nil, history), item: key, field: nil,
                        device: deviceName(device), at: notifiedAt[device] ?? time,
                        explanation: "\(deviceName(device))'s change notification listed \"\(key)\" although its visible value did not change."))
                }
            }
            fetchChanged.removeAll(keepingCapacity: true); listed.removeAll(keepingCapacity: true)
            for device in touchedAtomic.keys.sorted() {
                for write in (touchedAtomic[device] ?? []).sorted() {
                    checkAtomicity(write, on: device, at: time)
                }
            }
            touchedAtomic.removeAll(keepingCapacity: true)
        }

        func checkAtomicity(_ write: WriteID, on device: DeviceID, at time: SimInstant) {
            guard let items = itemsByWrite[write], items.count > 1, let replaced = replacedByWrite[write] else { return }
            var showsNew = false, showsOld: ItemKey?
            for item in items {
                let now = shown[DeviceItem(device: device, item: item)]
                if now?.write == write { showsNew = true; continue }
                if let old = replaced[item], now?.write == old {
                    // A later write to this item that saw the atomic one (a delete of one member,
                    // say) may leave it showing what it showed before: no violation (SPEC §6).
                    if let later = latestWrite[item], later != write, graph.observes(later, write),
                       valueByWriteItem[later]?[item] == now?.value ?? .absent { continue }
                    showsOld = item
                }
            }
            guard showsNew, let oldItem = showsOld else { return }
            anomalies.append(Anomaly(kind: .atomicityViolation, store: oldItem.store, account: history.accountName(oldItem.account),
                item: oldItem.name, field: oldItem.field.isEmpty ? nil : oldItem.field, device: deviceName(device), at: time,
                explanation: "\(deviceName(device)) showed part of atomic write \(history.name(of: write)) while \(oldItem.displayName) still had the value that write replaced.",
                write: history.name(of: write)))
        }

        for fact in history.facts {
            if fact.batch != currentBatch { flushBatch(at: fact.at); currentBatch = fact.batch }
            switch fact.kind {
            case .accountChanged(let account):
                if let device = fact.device { accountOf[device] = account }
            case .notification(let notification):
                guard let device = fact.device else { break }
                notificationTotal += 1
                notificationCounts[deviceName(device), default: [:]][notification.reason, default: 0] += 1
                if notification.store == .kvs && (notification.reason == "serverChange" || notification.reason == "initialSyncChange") {
                    listed[device, default: []].formUnion(notification.items)
                    notifiedAt[device] = fact.at
                }
            case .observation(let observation):
                switch observation {
                case .visible(let item, let value, let write, let cause):
                    guard let device = fact.device else { break }
                    let key = DeviceItem(device: device, item: item)
                    let previous = shown[key]
                    if let write {
                        _ = graph.index(of: write)
                        if cause == .local, operationByWrite[write]?.device == device || derivedDevice[write] == device {
                            if let before = previous?.write { graph.addEdge(from: write, to: before) }
                            record(item, write, value, replacing: previous?.write)
                        }
                        if (itemsByWrite[write]?.count ?? 0) > 1 { touchedAtomic[device, default: []].insert(write) }
                    }
                    if cause == .fetch && item.store == .kvs && previous?.value ?? .absent != value {
                        fetchChanged[device, default: []].insert(item.name)
                        notifiedAt[device] = notifiedAt[device] ?? fact.at
                    }
                    if item.account != .publicDatabase, let current = accountOf[device] ?? nil, current != item.account, value != .absent {
                        anomalies.append(Anomaly(kind: .isolationViolation, store: item.store, account: history.accountName(item.account),
                            item: item.name, field: item.field.isEmpty ? nil : item.field, device: deviceName(device), at: fact.at,
                            explanation: "\(deviceName(device)), signed into \(history.accountName(current)), showed \(item.displayName) of account \(history.accountName(item.account)).",
                            write: write.map { history.name(of: $0) }))
                    } else if let write, let writer = operationByWrite[write], let writerAccount = writer.account,
                              item.account != .publicDatabase, writerAccount != item.account {
                        anomalies.append(Anomaly(kind: .isolationViolation, store: item.store, account: history.accountName(item.account),
                            item: item.name, field: item.field.isEmpty ? nil : item.field, device: deviceName(device), at: fact.at,
                            explanation: "\(deviceName(device)) showed \(history.name(of: write)), a write made in account \(history.accountName(writerAccount)), as data of account \(history.accountName(item.account)).",
                            write: history.name(of: write)))
                    }
                    if let before = previous?.write, before != write, let write,
                       operationByWrite[before]?.device == device || derivedDevice[before] == device {
                        let replaced = WriteItem(write: before, item: item)
                        if replacedOnDevice[replaced, default: []].count < 4 { replacedOnDevice[replaced, default: []].append(write) }
                    }
                    shown[key] = Shown(write: write, value: value)
                case .derivedWrite(let write, let item, let value, let parents, _):
                    if let device = fact.device { derivedDevice[write] = device }
                    _ = graph.index(of: write)
                    for parent in parents { graph.addEdge(from: write, to: parent) }
                    if itemsByWrite[write]?.contains(item) != true { itemsByWrite[write, default: []].append(item) }
                    valueByWriteItem[write, default: [:]][item] = value
                case .conflictDetected(_, let writes, _):
                    conflictCount += 1
                    conflictWrites.formUnion(writes)
                case .conflictShown(_, let writes, _, let resolver):
                    conflictWrites.formUnion(writes)
                    // Which device's app resolved it, and with which policy, for explanations.
                    if let device = fact.device, let resolver {
                        for write in writes { resolvedBy[write] = (deviceName(device), resolver.name) }
                    }
                case .rejected(let write, let item, let error, let limit):
                    rejected.insert(write)
                    if let limit {
                        let key = "\(history.name(of: write))|\(limit)"
                        if let index = quotaAnomaly[key] {
                            let name = item.field.isEmpty ? item.name : "\(item.name).\(item.field)"
                            if anomalies[index].items.isEmpty { anomalies[index].items = [anomalies[index].field.map { "\(anomalies[index].item).\($0)" } ?? anomalies[index].item] }
                            if !anomalies[index].items.contains(name) { anomalies[index].items.append(name) }
                        } else {
                            quotaAnomaly[key] = anomalies.count
                            let device = operationByWrite[write]?.device ?? write.device
                            anomalies.append(Anomaly(kind: .quotaViolation, store: item.store, account: history.accountName(item.account),
                                item: item.name, field: item.field.isEmpty ? nil : item.field, device: deviceName(device), at: fact.at,
                                explanation: "\(deviceName(device))'s write \(history.name(of: write)) (\(operationByWrite[write]?.summary ?? "engine write")) was refused with \(error): it would break the \(limit) limit.",
                                write: history.name(of: write), limit: limit))
                        }
                    }
                case .lastWriterWins(let item, let chosen, let over, let rule):
                    lastWriterWins.append((item, chosen, over, rule, fact.at))
                case .discarded(let write, let item, let reason):
                    if discarded[write] == nil { discarded[write] = (item, reason, fact.at) }
                case .note:
                    break
                }
            }
        }
        flushBatch(at: history.facts.last?.at ?? .start)

        // The final values: the cloud's, plus deletes devices show for items the cloud no longer has.
        var finalByItem: [ItemKey: ViewEntry] = [:]
        for view in history.finalCloud { for entry in view { finalByItem[entry.item] = entry } }
        for entry in history.finalPublic { finalByItem[entry.item] = entry }
        let lostItems = lostItemsByWrite(history, graph: &graph, finalByItem: finalByItem, shown: shown,
                                         itemsByWrite: itemsByWrite, valueByWriteItem: valueByWriteItem, rejected: rejected)
        var writesByItem: [ItemKey: [WriteID]] = [:]
        for operation in history.operations where operation.outcome == .accepted {
            for item in itemsByWrite[operation.write] ?? [] { writesByItem[item, default: []].append(operation.write) }
        }
        func isDelete(_ write: WriteID) -> Bool {
            guard let values = valueByWriteItem[write], !values.isEmpty else { return false }
            return values.values.allSatisfy { $0 == .absent }
        }

        // Causality: a last-writer-wins choice of v over w although w had seen v.
        var inverted: [WriteID: (chosen: WriteID, rule: String)] = [:]
        for decision in lastWriterWins where inverted[decision.over] == nil {
            if graph.observes(decision.over, decision.chosen) {
                inverted[decision.over] = (decision.chosen, decision.rule)
                let item = decision.item
                anomalies.append(Anomaly(kind: .causalityViolation, store: item.store, account: history.accountName(item.account),
                    item: item.name, field: item.field.isEmpty ? nil : item.field, device: deviceName(decision.over.device), at: decision.at,
                    explanation: "Last-writer-wins (\(decision.rule)) kept \(history.name(of: decision.chosen)) over \(history.name(of: decision.over)) although \(history.name(of: decision.over)) was made after seeing it: clock skew inverted the order.",
                    write: history.name(of: decision.over), replacedBy: history.name(of: decision.chosen)))
            }
        }

        // Lost updates: per item (a KVS key, a document, a record field), SPEC §6.
        for operation in history.operations where operation.outcome == .accepted {
            let write = operation.write
            guard let items = itemsByWrite[write], let item = items.first else { continue }
            let name = history.name(of: write), device = deviceName(operation.device)
            // A write that survives is not lost, even if its engine gave it up: an upload the
            // cloud applied whose answer never came back is reported discarded by the device.
            guard !rejected.contains(write), let lost = lostItems[write], !lost.isEmpty else { continue }
            if let discard = discarded[write] {
                anomalies.append(Anomaly(kind: .lostUpdate, store: discard.item.store, account: history.accountName(discard.item.account),
                    item: discard.item.name, field: discard.item.field.isEmpty ? nil : discard.item.field, device: device, at: operation.at,
                    explanation: "\(device)'s write \(name) (\(operation.summary)) never reached the cloud: \(discard.reason).", write: name))
                continue
            }
            // A delete that lost to a concurrent edit loses no data: the edit wins and the item
            // comes back (SPEC §4.2, §4.3; for KVS the checker reports a resurrection). Only
            // values can be lost.
            if isDelete(write) && item.store != .kvs { continue }
            // KVS has no edit-wins rule (SPEC §4.1): a removal that an unseen set beat is a
            // write lost like any other (and its key's return a resurrection).
            var reported = item.store == .kvs ? lost : lost.filter { valueByWriteItem[write]?[$0] != .absent }
            // A record's fields are its items; the record itself (its existence) is reported
            // only when none of the write's fields was lost, so a create counts once.
            if item.store == .records {
                let fields = reported.filter { !$0.field.isEmpty }
                if !fields.isEmpty { reported = fields }
            }
            for lost in reported {
                let finalWrite = finalByItem[lost]?.write ?? shownFinalWrite(lost, shown)
                let decision = lastWriterWins.first { $0.over == write && $0.item == lost && !graph.observes($0.chosen, write) }
                    ?? lastWriterWins.first { $0.over == write && !graph.observes($0.chosen, write) }
                // The write that overwrote it: the one last-writer-wins chose over it, else the first
                // its own device showed in its place that had not seen it, else the final value.
                let seenReplacing = replacedOnDevice[WriteItem(write: write, item: lost)]?.first { !graph.observes($0, write) }
                let replacer = decision?.chosen ?? seenReplacing ?? finalWrite
                let inConflict = conflictWrites.contains(write)
                // A write of several items says which one this is (each is its own anomaly).
                let which = items.count > 1 ? " on \(lost.displayName)" : ""
                var sentence = "\(device)'s write \(name) (\(operation.summary) at \(SimDuration(microseconds: operation.at.microseconds)))\(which) was lost: "
                if let inversion = inverted[write] {
                    sentence += "last-writer-wins by \(inversion.rule) kept \(describe(inversion.chosen)), which \(name) had already seen, because clock skew made it look newer"
                } else if let decision {
                    sentence += "last-writer-wins by \(decision.rule) kept \(describe(decision.chosen)), which had not seen it"
                    if inConflict && lost.store == .documents { sentence += ", and the conflict version holding \(name) was later removed" }
                } else if let replacer, let resolution = resolvedBy[write] {
                    sentence += "\(resolution.device) resolved a conflict over it with policy \(resolution.policy), which "
                    sentence += graph.observes(write, replacer)
                        ? "put back the older value of \(describe(replacer)), which \(name) had replaced"
                        : "kept \(describe(replacer)), a value that had not seen it"
                } else if let replacer, graph.observes(write, replacer) {
                    // An older value the write had itself replaced came back: a save that had not
                    // seen the write sent the old value again (allKeys, changedKeys, clientWins).
                    sentence += "the older value of \(describe(replacer)), which \(name) had replaced, was written back over it by a save that had not seen it"
                } else if let replacer {
                    sentence += "\(describe(replacer)) replaced it without having seen it"
                    if inConflict { sentence += " when the conflict was resolved" }
                } else {
                    sentence += "the item is gone and nothing that removed it had seen this write"
                }
                if let finalWrite, finalWrite != replacer { sentence += "; the final value is \(describe(finalWrite))" }
                anomalies.append(Anomaly(kind: .lostUpdate, store: lost.store, account: history.accountName(lost.account),
                    item: lost.name, field: lost.field.isEmpty ? nil : lost.field, device: device, at: operation.at,
                    explanation: sentence + ".", write: name, replacedBy: replacer.map { history.name(of: $0) }))
            }
        }

        // Resurrection: a deleted item back without a write that observed the delete (SPEC §6).
        for operation in history.operations where operation.outcome == .accepted {
            let write = operation.write
            // A delete the cloud refused (a permission failure, say) deleted nothing; the app was told.
            if rejected.contains(write) { continue }
            guard let items = itemsByWrite[write], let values = valueByWriteItem[write] else { continue }
            // A record comes back as a whole: one resurrection for the record, not one per field.
            let deletedRecords = Set(items.filter { $0.store == .records && $0.field.isEmpty && values[$0] == .absent }.map(\.name))
            for item in items where values[item] == .absent {
                if item.store == .records && !item.field.isEmpty && deletedRecords.contains(item.name) { continue }
                guard let final = finalByItem[item], let finalWrite = final.write, finalWrite != write, final.value != .absent else { continue }
                let deviceName = deviceName(operation.device)
                let explanation: String
                var isKVSReturn = false
                if graph.observes(write, finalWrite) {
                    explanation = "\(item.displayName) is back with \(history.name(of: finalWrite)), a value that \(deviceName)'s delete \(history.name(of: write)) had seen and removed."
                } else if item.store == .kvs, !graph.observes(finalWrite, write) {
                    isKVSReturn = true
                    // KVS has no edit-wins rule (SPEC §4.1): a value made without seeing the
                    // removal won last-writer-wins and brought the key back.
                    explanation = "\(item.displayName) is back with \(history.name(of: finalWrite)), a value set without seeing \(deviceName)'s removal \(history.name(of: write)), which last-writer-wins let replace it."
                } else {
                    continue
                }
                // A later write that had seen the delete and touched the item brought it back on
                // purpose (a re-creation, or SPEC §4.3's own pending delete followed by a save).
                if (writesByItem[item] ?? []).contains(where: { $0 != write && graph.observes($0, write) }) { continue }
                anomalies.append(Anomaly(kind: .resurrection, store: item.store, account: history.accountName(item.account),
                    item: item.name, field: item.field.isEmpty ? nil : item.field, device: deviceName, at: operation.at,
                    explanation: explanation,
                    // For a KVS key brought back, the removal is what was undone and the set what did it.
                    write: history.name(of: isKVSReturn ? write : finalWrite), replacedBy: history.name(of: isKVSReturn ? finalWrite : write)))
            }
        }

        // Divergence: each signed-in device against the cloud's view of its account.
        let endTime = history.end
        for (index, viewOrNil) in history.finalDeviceViews.enumerated() {
            guard let view = viewOrNil, index < history.finalDeviceAccounts.count, let account = history.finalDeviceAccounts[index] else { continue }
            let cloud = Int(account.index) < history.finalCloud.count ? history.finalCloud[Int(account.index)] : []
            var cloudValues: [ItemKey: ItemValue] = [:]
            for entry in cloud { cloudValues[entry.item] = entry.value }
            var publicValues: [ItemKey: ItemValue] = [:]
            for entry in history.finalPublic { publicValues[entry.item] = entry.value }
            var deviceValues: [ItemKey: ItemValue] = [:]
            for entry in view { deviceValues[entry.item] = entry.value }
            var differing: [ItemKey] = []
            for entry in view {
                if entry.item.account == .publicDatabase {
                    if publicValues[entry.item] != entry.value { differing.append(entry.item) }
                } else if cloudValues[entry.item] ?? .absent != entry.value {
                    differing.append(entry.item)
                }
            }
            for entry in cloud where deviceValues[entry.item] == nil && entry.value != .absent { differing.append(entry.item) }
            differing.sort()
            var reportedStores: Set<Store> = []
            for item in differing where reportedStores.insert(item.store).inserted {
                let sameStore = differing.filter { $0.store == item.store }
                let list = sameStore.prefix(3).map { $0.displayName }.joined(separator: ", ") + (sameStore.count > 3 ? " and \(sameStore.count - 3) more" : "")
                anomalies.append(Anomaly(kind: .divergence, store: item.store, account: history.accountName(account), item: item.name,
                    field: item.field.isEmpty ? nil : item.field, device: history.deviceNames[index], at: endTime,
                    explanation: "After settling, \(history.deviceNames[index]) disagrees with the cloud on \(sameStore.count) \(item.store.rawValue) item\(sameStore.count == 1 ? "" : "s"): \(list)."))
            }
        }

        // Open document conflicts at the end.
        var openDocuments: Set<ItemKey> = []
        for survivors in history.survivingWrites {
            for write in survivors { if let item = itemsByWrite[write]?.first { openDocuments.insert(item) } }
        }

        anomalies.sort(by: Anomaly.precedes)
        var counts: [NotificationCount] = []
        for device in notificationCounts.keys.sorted() {
            for reason in (notificationCounts[device] ?? [:]).keys.sorted() {
                counts.append(NotificationCount(device: device, reason: reason, count: notificationCounts[device]?[reason] ?? 0))
            }
        }
        let writes = history.operations.reduce(0) { $0 + ($1.outcome == .accepted && itemsByWrite[$1.write] != nil ? 1 : 0) }
        let lost = anomalies.reduce(0) { $0 + ($1.kind == .lostUpdate ? 1 : 0) }
        let quota = anomalies.reduce(0) { $0 + ($1.kind == .quotaViolation ? 1 : 0) }
        let diverged = anomalies.contains { $0.kind == .divergence }
        return CheckReport(anomalies: anomalies, writes: writes, lostUpdates: lost, conflicts: conflictCount,
                           unresolvedConflicts: openDocuments.count, quotaViolations: quota, converged: !diverged,
                           notifications: notificationTotal, notificationCounts: counts)
    }

    /// Per write, the items it was lost on (SPEC §6): not the final value, not in `observed` of
    /// it, surviving nowhere. A value survives as the item's final value, as a value a device
    /// still shows, as an unresolved conflict version, through a merge or a conflict copy that
    /// lists it, and through a delete that had seen it (removed on purpose is not lost).
    ///
    /// KVS keys and record fields are judged one item at a time: a write that touched several
    /// (`kvs.setMany`, a record save) can survive on one and be lost on another. Documents are
    /// judged over the whole graph, because a conflict copy keeps a version alive on another
    /// path; a document write whose content is the final content loses nothing either.
    /// - Complexity: O(Σ over items of what that item's survivors reach).
    private func lostItemsByWrite(_ history: History, graph: inout WriteGraph, finalByItem: [ItemKey: ViewEntry], shown: [DeviceItem: Shown],
                                  itemsByWrite: [WriteID: [ItemKey]], valueByWriteItem: [WriteID: [ItemKey: ItemValue]],
                                  rejected: Set<WriteID>) -> [WriteID: [ItemKey]] {
        var rootsByItem: [ItemKey: [WriteID]] = [:]
        for item in finalByItem.keys.sorted() { if let write = finalByItem[item]?.write { rootsByItem[item, default: []].append(write) } }
        for survivors in history.survivingWrites {
            for write in survivors { for item in itemsByWrite[write] ?? [] { rootsByItem[item, default: []].append(write) } }
        }
        for view in history.finalDeviceViews {
            for entry in view ?? [] { if let write = entry.write { rootsByItem[entry.item, default: []].append(write) } }
        }
        // Deletes a device still shows for items the cloud no longer has.
        for key in shown.keys.sorted(by: { ($0.device, $0.item) < ($1.device, $1.item) }) {
            if let seen = shown[key], seen.value == .absent, let write = seen.write, finalByItem[key.item] == nil {
                rootsByItem[key.item, default: []].append(write)
            }
        }
        var writesByItem: [ItemKey: [WriteID]] = [:]
        for operation in history.operations where operation.outcome == .accepted && !rejected.contains(operation.write) {
            for item in itemsByWrite[operation.write] ?? [] {
                writesByItem[item, default: []].append(operation.write)
                if valueByWriteItem[operation.write]?[item] == .absent {
                    // What a delete had seen was removed on purpose. A KVS removal itself can
                    // still be lost (no edit-wins rule there), so only what it was built on counts.
                    rootsByItem[item, default: []].append(contentsOf: item.store == .kvs ? graph.builtOn(operation.write) : [operation.write])
                }
            }
        }
        let items = writesByItem.keys.sorted()
        var lost: [WriteID: [ItemKey]] = [:]
        graph.mark(from: rootsByItem.keys.sorted().filter { $0.store == .documents }.flatMap { rootsByItem[$0] ?? [] })
        for item in items where item.store == .documents {
            let final = finalByItem[item]
            for write in writesByItem[item] ?? [] where !graph.isMarked(write) {
                if let final, final.write != nil, valueByWriteItem[write]?[item] == final.value { continue }
                lost[write, default: []].append(item)
            }
        }
        // The same key or field in every private account shares its survivors: a record saved
        // while signed out is uploaded to whichever account signs in next (SPEC §4.3), so it can
        // survive in another account than the one it was made under. (A value crossing accounts
        // any other way is an isolation violation, reported on its own.)
        func acrossAccounts(_ item: ItemKey) -> ItemKey {
            item.account == .publicDatabase ? item : ItemKey(account: AccountID(index: 0), store: item.store, name: item.name, field: item.field)
        }
        var rootsAcrossAccounts: [ItemKey: [WriteID]] = [:]
        for item in rootsByItem.keys.sorted() where item.store != .documents {
            rootsAcrossAccounts[acrossAccounts(item), default: []].append(contentsOf: rootsByItem[item] ?? [])
        }
        for item in items where item.store != .documents {
            graph.mark(from: rootsAcrossAccounts[acrossAccounts(item)] ?? [])
            // A record's existence is a fact, not a value someone typed: a write that created
            // (or re-created) a record that exists at the end with its type lost nothing there.
            let existing = item.store == .records && item.field.isEmpty ? finalByItem[item]?.value : nil
            for write in writesByItem[item] ?? [] where !graph.isMarked(write) {
                if let existing, existing != .absent, valueByWriteItem[write]?[item] == existing { continue }
                lost[write, default: []].append(item)
            }
        }
        return lost
    }

    private func shownFinalWrite(_ item: ItemKey, _ shown: [DeviceItem: Shown]) -> WriteID? {
        for key in shown.keys.sorted(by: { $0.device < $1.device }) where key.item == item {
            if let write = shown[key]?.write { return write }
        }
        return nil
    }

    private func accountLabel(_ account: AccountID?, _ history: History) -> String {
        account.map { history.accountName($0) } ?? history.accountNames.first ?? "main"
    }
}
