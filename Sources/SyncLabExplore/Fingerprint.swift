import SyncLabChecker
import SyncLabHistory
import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario

/// Fingerprints: what a finding *is*, from structure only, never from message text (SPEC §10).
///
/// `KIND.STORE.POLICY.LOST.CAUSE`, e.g. `lostUpdate.documents.lastWriterWins.doc-save-offline.by-doc-save`:
/// the anomaly kind, the store, the policy the store ran on the anomaly's device (`lww` for KVS,
/// whose only rule is last-writer-wins; the app's name when the scenario names one), the op of the write that was lost (or offended, with `-offline` when its
/// device was in airplane mode as it made it: the airplane-mode lost update is a bug of its
/// own, not two devices saving at once; `-signedOut` when its device was signed out), and what
/// replaced it —
/// `by-OP` (the op of the replacing write, `by-derived` for an engine's merge or resolution,
/// `by-none` when nothing replaced it) or `discarded` (sign-out, app deletion). A quota
/// violation's shape is its limit; a divergence's is `view`. Device names, item names, values and
/// times are left out, so the same bug found with other devices, items or timing groups together,
/// and a shrunk scenario keeps its original's fingerprint.
struct Fingerprint {
    let history: History
    let run: ScenarioRun
    private var opByWrite: [String: String] = [:]
    /// Writes made while their device was in airplane mode.
    private var offline: Set<String> = []
    /// Writes made while their device was signed out.
    private var signedOut: Set<String> = []
    /// Writes made while signed out by a device still signed out when the run ended: in no account.
    private(set) var signedOutAtEnd: Set<String> = []
    private(set) var discarded: Set<String> = []
    /// `WRITE|ITEM|FIELD` for each record field whose pending change sign-out, app deletion or a
    /// user's zone deletion discarded.
    private(set) var discardedOnItem: Set<String> = []
    /// Writes whose content an engine's document write (a `keepBoth` copy, a merge) carried, when
    /// that write was then discarded pending by sign-out or app deletion.
    private(set) var copiedIntoDiscarded: Set<String> = []
    /// Writes a last-writer-wins comparison chose another write over.
    private(set) var beatenByLastWriterWins: Set<String> = []
    /// `WINNER|DEVICE` for each such comparison: the winner beat a write of that device.
    private(set) var winnerOverDevice: Set<String> = []
    /// `WINNER|ITEM|FIELD` for each such comparison: the winner won one on that item.
    private(set) var winnerOnItem: Set<String> = []
    /// Per record (`ZONE/NAME`, any account), the last time a user's unconditional delete
    /// (`record.delete`, a delete in `records.saveAtomic`, `zone.delete`) removed it on a device
    /// (its own, or another that fetched the delete).
    private(set) var recordDeletedAt: [String: SimInstant] = [:]
    /// `WRITE|ITEM` for each record a user write showed its value on, on its own device.
    private(set) var recordsWritten: Set<String> = []
    /// `LOSER|ITEM|FIELD` for each last-writer-wins comparison: the loser lost one on that item.
    private(set) var loserOnItem: Set<String> = []
    /// Per `WRITE|ITEM|FIELD`, the writes a device made on that record field while showing WRITE
    /// there (they saw it and replaced it).
    private(set) var successorsOnItem: [String: [String]] = [:]
    /// Per `DEVICE|ITEM|FIELD`, the highest user-write number of that device that a last-writer-wins
    /// comparison on that item discarded.
    private(set) var latestLoserOnItem: [String: Int] = [:]
    /// Per record, the user deletes of it (`record.delete`, a delete in `records.saveAtomic`):
    /// the delete's write and its device.
    private(set) var recordDeletes: [String: [(write: String, device: String)]] = [:]
    /// Per `DEVICE|DELETE`, when that device first showed that delete.
    private(set) var deleteShownAt: [String: SimInstant] = [:]
    /// Writes a device's pending unconditional delete met (and so removes in the cloud).
    private(set) var metByPendingDelete: Set<String> = []
    /// Per zone name, each user's `zone.delete` of it (by the app or from Settings): the device
    /// and when. A zone delete reaches the cloud when its device next can, so it may remove edits
    /// made after the op (its device offline, throttled, or signed out).
    private(set) var zoneDeletes: [String: [(device: String, at: SimInstant)]] = [:]

    init(history: History, run: ScenarioRun) {
        self.history = history; self.run = run
        for operation in history.operations {
            opByWrite[history.name(of: operation.write)] = operation.op
            if operation.op == "zone.delete", operation.outcome == .accepted, let zone = Fingerprint.quoted(operation.summary) {
                // A zone deleted while signed out is deleted in whichever account signs in next,
                // at a time the op does not say: count it as late as can be.
                let at = operation.account == nil ? SimInstant(microseconds: .max) : operation.at
                zoneDeletes[zone, default: []].append((Fingerprint.device(of: history.name(of: operation.write)), at))
            }
            if operation.account == nil {
                signedOut.insert(history.name(of: operation.write))
                let device = Int(operation.device.index)
                if device < history.finalDeviceAccounts.count && history.finalDeviceAccounts[device] == nil {
                    signedOutAtEnd.insert(history.name(of: operation.write))
                }
            }
        }
        offline = Fingerprint.offlineWrites(history, run)
        // Per `DEVICE|ITEM|FIELD`, the write that device shows on a record field.
        var lastShown: [String: String] = [:]
        // Per `WRITE|ITEM|FIELD` of an engine's derived write, the writes it was made from.
        var derivedParents: [String: [String]] = [:]
        // Per engine document write with content, the versions it was made from.
        var documentCopyParents: [String: [String]] = [:]
        for fact in history.facts {
            guard case .observation(let observation) = fact.kind else { continue }
            switch observation {
            case .discarded(let write, let item, _):
                discarded.insert(history.name(of: write))
                if item.store == .records || item.store == .documents {
                    discardedOnItem.insert(Fingerprint.winnerKey(history.name(of: write), item: item.name, field: item.field))
                }
            case .conflictShown(let item, let writes, "delete is unconditional", _) where item.store == .records:
                // The pending delete itself is a `record.delete` or a delete in a
                // `records.saveAtomic`; the saves it met are everything else listed.
                for write in writes.map({ history.name(of: $0) }) where opByWrite[write] != "record.delete" {
                    metByPendingDelete.insert(write)
                }
            case .visible(let item, let value, let write, let cause) where item.store == .records && !item.field.isEmpty:
                guard let device = fact.device else { break }
                let shown = Fingerprint.winnerKey(history.deviceNames[Int(device.index)], item: item.name, field: item.field)
                let name = write.map { history.name(of: $0) }
                if cause == .local, let name { recordsWritten.insert(name + "|" + item.name) }
                if cause == .local, let name, let before = lastShown[shown], before != name {
                    successorsOnItem[Fingerprint.winnerKey(before, item: item.name, field: item.field), default: []].append(name)
                }
                lastShown[shown] = value == .absent ? nil : name
            case .visible(let item, let value, let write, let cause) where item.store == .documents:
                // A document's local edits replace one another as a record field's do: a pending
                // append folded into the delete that followed it goes with that delete.
                guard let device = fact.device else { break }
                let shown = Fingerprint.winnerKey(history.deviceNames[Int(device.index)], item: item.name, field: item.field)
                let name = write.map { history.name(of: $0) }
                if cause == .local, let name, let before = lastShown[shown], before != name {
                    successorsOnItem[Fingerprint.winnerKey(before, item: item.name, field: item.field), default: []].append(name)
                }
                lastShown[shown] = value == .absent ? nil : name
            case .visible(let item, let value, let write?, _) where item.store == .records && item.field.isEmpty && value == .absent:
                let name = history.name(of: write)
                let op = opByWrite[name]
                if op == "record.delete" || op == "records.saveAtomic" {
                    let deleter = Fingerprint.device(of: name)
                    if !(recordDeletes[item.name] ?? []).contains(where: { $0.write == name }) { recordDeletes[item.name, default: []].append((name, deleter)) }
                }
                if let device = fact.device {
                    let key = Fingerprint.winnerKey(history.deviceNames[Int(device.index)], item: name, field: "")
                    if deleteShownAt[key] == nil { deleteShownAt[key] = fact.at }
                }
                if Fingerprint.deletes(op) {
                    recordDeletedAt[item.name] = max(recordDeletedAt[item.name] ?? fact.at, fact.at)
                }
            case .derivedWrite(let write, let item, let value, let parents, _):
                derivedParents[Fingerprint.winnerKey(history.name(of: write), item: item.name, field: item.field)] = parents.map { history.name(of: $0) }
                if item.store == .documents, value != .absent { documentCopyParents[history.name(of: write)] = parents.map { history.name(of: $0) } }
            case .lastWriterWins(let item, let chosen, let over, _):
                // An engine's merge result that loses carries its parents' values with it (two
                // equal edits merged into one, say): they lose the same comparison (records seed
                // 3460), however deep the merges go.
                var losers = [history.name(of: over)]
                var seen: Set<String> = []
                while let loser = losers.popLast() {
                    guard seen.insert(loser).inserted else { continue }
                    beatenByLastWriterWins.insert(loser)
                    winnerOverDevice.insert(history.name(of: chosen) + "|" + Fingerprint.device(of: loser))
                    winnerOnItem.insert(Fingerprint.winnerKey(history.name(of: chosen), item: item.name, field: item.field))
                    loserOnItem.insert(Fingerprint.winnerKey(loser, item: item.name, field: item.field))
                    if let number = Fingerprint.userWriteNumber(loser) {
                        let key = Fingerprint.winnerKey(Fingerprint.device(of: loser), item: item.name, field: item.field)
                        latestLoserOnItem[key] = max(latestLoserOnItem[key] ?? number, number)
                    }
                    losers.append(contentsOf: derivedParents[Fingerprint.winnerKey(loser, item: item.name, field: item.field)] ?? [])
                }
            default: break
            }
        }
        // A copy's parents, through copies made of copies (a set: the map's order is not observable).
        var carried = documentCopyParents.filter { discarded.contains($0.key) }.flatMap(\.value)
        while let parent = carried.popLast() {
            guard copiedIntoDiscarded.insert(parent).inserted else { continue }
            carried.append(contentsOf: documentCopyParents[parent] ?? [])
        }
    }

    /// The name an op's summary quotes (`zone.delete "Notes"` → `Notes`).
    static func quoted(_ summary: String) -> String? {
        guard let open = summary.firstIndex(of: "\""), let close = summary.lastIndex(of: "\""), open < close else { return nil }
        return String(summary[summary.index(after: open)..<close])
    }

    /// The key of `winnerOnItem`.
    static func winnerKey(_ winner: String, item: String, field: String) -> String {
        winner + "|" + item + "|" + field
    }

    /// The op that made `write` (`doc.save`, `derived` for an engine's own write, `none`).
    func op(of write: String?) -> String {
        guard let write else { return "none" }
        if let op = opByWrite[write] { return op }
        return write.contains(":m") ? "derived" : "none"
    }

    /// Writes whose device was in airplane mode when they were made (from the run's
    /// `airplane.on`/`airplane.off` steps, at or before the write's time).
    static func offlineWrites(_ history: History, _ run: ScenarioRun) -> Set<String> {
        var result: Set<String> = []
        var online = run.devices.map(\.online)
        var next = 0
        for operation in history.operations {
            while next < run.steps.count && run.steps[next].at <= operation.at {
                let step = run.steps[next]
                switch step.op {
                case .airplaneOn: for device in step.devices { online[device] = false }
                case .airplaneOff: for device in step.devices { online[device] = true }
                default: break
                }
                next += 1
            }
            let device = Int(operation.device.index)
            if device < online.count && !online[device] { result.insert(history.name(of: operation.write)) }
        }
        return result
    }

    /// Ops that can delete a record unconditionally.
    static func deletes(_ op: String?) -> Bool {
        op == "record.delete" || op == "records.saveAtomic" || op == "zone.delete"
    }

    /// N of a user write `DEVICE:N`; nil for an engine's own write (`DEVICE:mN`).
    static func userWriteNumber(_ write: String) -> Int? {
        guard let colon = write.lastIndex(of: ":") else { return nil }
        return Int(write[write.index(after: colon)...])
    }

    /// Whether a write that saw `write` on this record field and replaced it (directly, or through
    /// further such writes) lost a last-writer-wins comparison there.
    func successorLostMerge(_ write: String, item: String, field: String) -> Bool {
        successor(of: write, item: item, field: field, in: loserOnItem)
    }

    /// Whether a write that saw `write` on this record field (or document) and replaced it
    /// (directly, or through further such writes) was discarded there, pending, by sign-out, app
    /// deletion or a user's zone deletion: `write`, pending under it, went with it (records seeds
    /// 4198, 4792; documents seeds 123, 1375: an append folded into a delete the app's deletion
    /// discarded).
    func successorDiscarded(_ write: String, item: String, field: String) -> Bool {
        successor(of: write, item: item, field: field, in: discardedOnItem)
    }

    /// Whether `write`'s content, or a later local version's that replaced it on this document,
    /// went into an engine's document write (a `keepBoth` copy) that was then discarded pending:
    /// the resolve may remove the conflict version before a copy refused for space goes up
    /// (ARCHITECTURE.md, spec22), and then the copy's discard is what lost it (documents seed 1773).
    func carriedByDiscardedCopy(_ write: String, item: String) -> Bool {
        copiedIntoDiscarded.contains(write) || successor(of: write, item: item, field: "") { copiedIntoDiscarded.contains($0) }
    }

    /// Whether a write that saw `write` on this record field and replaced it, directly or through
    /// further such writes, has its `WRITE|ITEM|FIELD` key in `keys`.
    private func successor(of write: String, item: String, field: String, in keys: Set<String>) -> Bool {
        successor(of: write, item: item, field: field) { keys.contains(Fingerprint.winnerKey($0, item: item, field: field)) }
    }

    /// Whether a write that saw `write` on this record field (or document) and replaced it,
    /// directly or through further such writes, satisfies `matches`.
    private func successor(of write: String, item: String, field: String, where matches: (String) -> Bool) -> Bool {
        var queue = [write], seen: Set<String> = [write]
        while let next = queue.popLast() {
            for successor in successorsOnItem[Fingerprint.winnerKey(next, item: item, field: field)] ?? [] where seen.insert(successor).inserted {
                if matches(successor) { return true }
                queue.append(successor)
            }
        }
        return false
    }

    /// `B` of `B:2` or `B:m1`.
    static func device(of write: String) -> String {
        String(write[..<(write.lastIndex(of: ":") ?? write.endIndex)])
    }

    /// The engine settings `device` ran under: the scenario's, with the conflict policy of any
    /// built-in policy its `apps` name (an app named in `apps` takes precedence over
    /// `engine.*.conflict`, docs/LIBRARY.md), so promises are those of the policy that ran there.
    func engine(of device: String) -> EngineSettings {
        guard let spec = run.devices.first(where: { $0.id == device }) else { return run.engine }
        return DeviceApps(spec.apps, engine: run.engine).applied(to: run.engine)
    }

    /// The policy `device` ran for `store`: the app its scenario names there (a team's app, or a
    /// built-in one named in `apps`), else the engine's policy. A team's app under the fuzzer is
    /// held to a drawn lossless policy's promises, but what it did is its own: its findings group
    /// under its name, not under the policy the seed happened to draw.
    func policy(_ store: Store, device: String) -> String {
        if let app = run.devices.first(where: { $0.id == device })?.apps[store], app != AppNames.defaultName { return app }
        switch store {
        case .kvs: return "lww"
        case .documents: return run.engine.documents.conflict.rawValue
        case .records: return run.engine.records.conflict.rawValue
        }
    }

    func of(_ anomaly: Anomaly) -> String {
        var parts = [anomaly.kind.rawValue, anomaly.store.rawValue, policy(anomaly.store, device: anomaly.device)]
        switch anomaly.kind {
        case .quotaViolation: parts.append(anomaly.limit ?? "none")
        case .divergence: parts.append("view")
        default:
            parts.append(op(of: anomaly.write) + (anomaly.write.map(offline.contains) == true ? "-offline" : "")
                         + (anomaly.write.map(signedOut.contains) == true ? "-signedOut" : ""))
            if let write = anomaly.write, discarded.contains(write) { parts.append("discarded") } else { parts.append("by-" + op(of: anomaly.replacedBy)) }
        }
        return parts.map { $0.replacingOccurrences(of: ".", with: "-") }.joined(separator: ".")
    }
}
