import SyncLabChecker
import SyncLabResult
import SyncLabHistory
import SyncLabProtocol
import SyncLabSimulation
import SyncLabRunner

/// Applies the finding rule to one judged run: the promises table of docs/FUZZING.md, or `--find`.
public enum PromiseJudge {
    /// The run's findings, one per fingerprint, in the order of the checker's anomalies (a failed
    /// run first).
    public static func findings(_ judged: ScenarioRunner.Judged, rule: FindingRule) -> [Finding] {
        let outcome = judged.outcome
        let fingerprint = Fingerprint(history: outcome.history, run: outcome.run)
        var findings: [Finding] = []
        var seen: Set<String> = []
        func add(_ finding: Finding) {
            if seen.insert(finding.fingerprint).inserted { findings.append(finding) }
        }
        if case .find(let kind) = rule {
            for anomaly in outcome.report.anomalies where anomaly.kind.rawValue == kind {
                add(Finding(fingerprint: fingerprint.of(anomaly), kind: kind, store: anomaly.store.rawValue, anomaly: anomaly))
            }
            return findings
        }
        if outcome.capHit { add(Finding(fingerprint: "eventCap.all", kind: "eventCap", store: "all", anomaly: nil)) }
        if !outcome.assertFailures.isEmpty { add(Finding(fingerprint: "assert.all", kind: "assert", store: "all", anomaly: nil)) }
        for anomaly in outcome.report.anomalies where breaksPromise(anomaly, fingerprint) && !heldForQuota(anomaly, outcome.report.anomalies, fingerprint)
            && !overwrittenByClientWins(anomaly, outcome.report.anomalies, fingerprint)
            && !lostToMerge(anomaly, outcome.report.anomalies, fingerprint)
            && !fingerprint.divergesOnlyWhereNoChangeReaches(anomaly)
            && !deleteHeldForQuota(anomaly, outcome.report.anomalies, fingerprint) {
            add(Finding(fingerprint: fingerprint.of(anomaly), kind: anomaly.kind.rawValue, store: anomaly.store.rawValue, anomaly: anomaly))
        }
        return findings
    }

    /// A divergence on an item a quota refused: the refused edit stays local and pending (SPEC
    /// §4.2, §4.3: not lost, retried when space frees), so the device shows what the cloud lacks.
    /// A documented promise boundary, not a finding.
    /// The same holds for the other records of a refused atomic call: the call waits whole
    /// (mixed seed 3654), so a record the refused write changed on its device is held with it.
    static func heldForQuota(_ anomaly: Anomaly, _ anomalies: [Anomaly], _ fingerprint: Fingerprint) -> Bool {
        guard anomaly.kind == .divergence else { return false }
        return anomalies.contains { refused in
            guard refused.kind == .quotaViolation, refused.store == anomaly.store else { return false }
            if refused.item == anomaly.item || refused.items.contains(anomaly.item) { return true }
            return anomaly.store == .records && refused.write.map { fingerprint.recordsWritten.contains($0 + "|" + anomaly.item) } == true
        }
    }

    /// A record "back" only because its device's own delete of it waits, unsent, with an atomic
    /// call the quota refused: the device changed that record in the call, so its one pending
    /// change of the record (SPEC §4.3: a device's changes of a record fold into one) now is the
    /// delete, and the call, delete included, stays pending whole until space frees (SPEC §4.2,
    /// §4.3: refused, reported, not lost; mixed seed 3654). The cloud never had the delete, so it
    /// keeps the other device's re-upload the delete had seen; the device still shows the record
    /// deleted at the end (its divergence names it, held for the same quota). A documented
    /// boundary, as that divergence is, not a finding (records seed 6970).
    static func deleteHeldForQuota(_ anomaly: Anomaly, _ anomalies: [Anomaly], _ fingerprint: Fingerprint) -> Bool {
        guard anomaly.kind == .resurrection, anomaly.store == .records, let delete = anomaly.replacedBy,
              Fingerprint.device(of: delete) == anomaly.device else { return false }
        let stillDeletedThere = anomalies.contains { divergence in
            divergence.kind == .divergence && divergence.store == .records && divergence.device == anomaly.device
                && (divergence.item == anomaly.item || divergence.items.contains(anomaly.item))
        }
        guard stillDeletedThere else { return false }
        return anomalies.contains { refused in
            refused.kind == .quotaViolation && refused.store == .records && refused.device == anomaly.device
                && refused.write.map { fingerprint.recordsWritten.contains($0 + "|" + anomaly.item) } == true
        }
    }

    /// An atomic call's field that records `clientWins` overwrote: the resolving device puts every
    /// local field onto the server record (SPEC §4.3), fields it never edited included, so the
    /// cloud itself keeps the rest of the call beside the value the call had replaced there. The
    /// checker reports that overwrite as the call's lost update on the very field the atomicity
    /// anomaly names; the half call is that documented loss, not a finding (records seeds 23, 46).
    static func overwrittenByClientWins(_ anomaly: Anomaly, _ anomalies: [Anomaly], _ fingerprint: Fingerprint) -> Bool {
        guard anomaly.kind == .atomicityViolation, anomaly.store == .records,
              fingerprint.engine(of: anomaly.device).records.conflict == .clientWins else { return false }
        return lostOnTheSameField(anomaly, anomalies)
    }

    /// An atomic call's field that records `merge` gave to the other side: both sides changed it
    /// and the later edit won (SPEC §4.3), so the call's value there is the documented lost
    /// update, while the rest of the call, which no one else changed, is kept (the merge
    /// promise). A device that shows the rest while that field still has its value from before
    /// the call (its newer version held for the device's own save's answer) shows that loss, not
    /// a finding (records seed 4745, unshrunk).
    static func lostToMerge(_ anomaly: Anomaly, _ anomalies: [Anomaly], _ fingerprint: Fingerprint) -> Bool {
        guard anomaly.kind == .atomicityViolation, anomaly.store == .records, fingerprint.engine(of: anomaly.device).records.conflict == .merge,
              let write = anomaly.write, fingerprint.beatenByLastWriterWins.contains(write) else { return false }
        return lostOnTheSameField(anomaly, anomalies)
    }

    /// Whether the run reports the atomicity anomaly's write as a lost update on the very record
    /// field the anomaly names.
    private static func lostOnTheSameField(_ anomaly: Anomaly, _ anomalies: [Anomaly]) -> Bool {
        guard let write = anomaly.write else { return false }
        return anomalies.contains { lost in
            lost.kind == .lostUpdate && lost.store == .records && lost.write == write
                && lost.account == anomaly.account && lost.item == anomaly.item && lost.field == anomaly.field
        }
    }

    /// The promises table (docs/FUZZING.md), as code.
    static func breaksPromise(_ anomaly: Anomaly, _ fingerprint: Fingerprint) -> Bool {
        // A write made signed out on a device still signed out at the end is in no account: the
        // end phase does not sign devices in, so nothing can judge it (a documented boundary).
        if [anomaly.write, anomaly.replacedBy].contains(where: { $0.map(fingerprint.signedOutAtEnd.contains) == true }) { return false }
        switch anomaly.kind {
        case .divergence, .atomicityViolation, .isolationViolation, .missedNotification, .spuriousNotification:
            return true // every policy, every store
        case .quotaViolation, .causalityViolation:
            return false // a refused write is reported, not lost; a clock inversion is judged by the lost write it makes
        case .resurrection:
            return anomaly.store != .kvs // KVS has no edit-wins rule: a remove can be undone by an unseen set
        case .lostUpdate:
            return !lossExplained(anomaly, fingerprint)
        }
    }

    /// A lost update the policy documents: discarded at sign-out or app deletion (every store), a
    /// last-writer-wins comparison the policy makes (KVS, records `merge` on a field both sides
    /// changed), an unconditional record delete, or a lossy policy (documents `lastWriterWins`,
    /// records `serverWins`/`clientWins`). Anything else — notably a write lost by a crash — breaks
    /// a promise.
    static func lossExplained(_ anomaly: Anomaly, _ fingerprint: Fingerprint) -> Bool {
        guard let write = anomaly.write else { return false }
        if fingerprint.discarded.contains(write) { return true }
        switch anomaly.store {
        case .kvs:
            return fingerprint.beatenByLastWriterWins.contains(write)
        case .documents:
            if fingerprint.engine(of: anomaly.device).documents.conflict == .lastWriterWins { return true }
            // A pending edit its device replaced with a later pending one (an append folded into
            // the delete that followed) that app deletion or sign-out then discarded: it was
            // discarded with that edit, though the checker names the write that finally replaced it.
            if fingerprint.successorDiscarded(write, item: anomaly.item, field: anomaly.field ?? "") { return true }
            // A conflict version whose `keepBoth` copy was refused for space, then discarded
            // pending by app deletion or sign-out after the resolve removed the version: the user's
            // discard lost it, as it loses any pending edit (spec22; documents seed 1773).
            return fingerprint.carriedByDiscardedCopy(write, item: anomaly.item)
        case .records:
            if fingerprint.engine(of: anomaly.device).records.conflict != .merge { return true }
            if fingerprint.beatenByLastWriterWins.contains(write) { return true }
            // An earlier local edit of a field whose later edit lost the both-sides merge is lost
            // with it (the checker names each): the same documented loss.
            if let replacedBy = anomaly.replacedBy, fingerprint.winnerOverDevice.contains(replacedBy + "|" + Fingerprint.device(of: write)) { return true }
            // Likewise an earlier edit of the field on the same device (a later edit there saw it
            // and replaced it) when that later edit lost the both-sides merge.
            if let number = Fingerprint.userWriteNumber(write),
               let latest = fingerprint.latestLoserOnItem[Fingerprint.winnerKey(Fingerprint.device(of: write), item: anomaly.item, field: anomaly.field ?? "")],
               number <= latest { return true }
            // Likewise a value whose successor on that field (a write that had seen it) lost the
            // both-sides merge to the write that replaced it: both sides changed the field.
            if let replacedBy = anomaly.replacedBy,
               fingerprint.winnerOnItem.contains(Fingerprint.winnerKey(replacedBy, item: anomaly.item, field: anomaly.field ?? "")) { return true }
            // Likewise a value a later write saw and replaced on that field (on its own device or
            // another that showed it), when that later write lost the both-sides merge: the value
            // goes with the edit that replaced it (records seed 1054).
            if fingerprint.successorLostMerge(write, item: anomaly.item, field: anomaly.field ?? "") { return true }
            // Likewise a pending value its device replaced with a later pending edit of the field
            // that sign-out, app deletion or a user's zone deletion then discarded: it was
            // discarded with that edit, though the checker names the write that finally replaced
            // it (records seeds 4198, 4792).
            if fingerprint.successorDiscarded(write, item: anomaly.item, field: anomaly.field ?? "") { return true }
            // An edit an unconditional delete removed in the cloud, even if a later save then
            // re-created the record (SPEC §4.3: deletes are unconditional).
            if let deleted = fingerprint.recordDeletedAt[anomaly.item], deleted >= anomaly.at { return true }
            if fingerprint.metByPendingDelete.contains(write) { return true }
            // An edit concurrent with another device's unconditional delete of the record (its
            // device had not shown that delete when it made the edit): the delete, reaching the
            // cloud after the edit, removes it — documented, even when the cloud's answer shows
            // no trace of the meeting on any device.
            let editor = Fingerprint.device(of: write)
            if (fingerprint.recordDeletes[anomaly.item] ?? []).contains(where: { delete in
                guard delete.device != editor else { return false }
                let shown = fingerprint.deleteShownAt[Fingerprint.winnerKey(editor, item: delete.write, field: "")]
                return shown.map { $0 > anomaly.at } ?? true
            }) { return true }
            // An edit in a zone a user deleted: after the edit, or on another device at any time
            // (its delete reached the cloud when that device could send it, maybe after the edit).
            if let zone = anomaly.item.split(separator: "/", maxSplits: 1).first,
               (fingerprint.zoneDeletes[String(zone)] ?? []).contains(where: { $0.at >= anomaly.at || $0.device != Fingerprint.device(of: write) }) {
                return true
            }
            let replacing = fingerprint.op(of: anomaly.replacedBy)
            return replacing == "record.delete" || replacing == "records.saveAtomic" || replacing == "zone.delete"
        }
    }
}
