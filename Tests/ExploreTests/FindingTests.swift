import Testing
import SyncLabExplore
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner
import SyncLabJSON

/// Fingerprints and the shrinker, on a seed known to show the airplane-mode lost update under
/// documents lastWriterWins (seed 37 of the documents profile).
@Suite struct FindingTests {
    static let runner = SeedRunner(profile: .documents, policies: FuzzPolicies(documents: [.lastWriterWins], records: [.merge]), rule: .find("lostUpdate"))
    static let airplane = "lostUpdate.documents.lastWriterWins.doc-save-offline.by-doc-save"

    @Test func fingerprintsAreStableAcrossRuns() {
        let first = FindingTests.runner.run(37).findings.map(\.fingerprint)
        let second = FindingTests.runner.run(37).findings.map(\.fingerprint)
        #expect(first == second)
        #expect(first.contains(FindingTests.airplane))
    }

    @Test func fingerprintsCarryNoNamesOrValues() {
        for seed in UInt64(30)...40 {
            for finding in FindingTests.runner.run(seed).findings {
                #expect(!finding.fingerprint.contains("note0") && !finding.fingerprint.contains("note1"))
                #expect(finding.fingerprint.hasPrefix("lostUpdate.documents.lastWriterWins."))
            }
        }
    }

    @Test func shrinkerKeepsTheFingerprintAndGetsSmaller() throws {
        let generated = FindingTests.runner.generate(37)
        let target = ShrinkTarget.fingerprint(FindingTests.airplane, .find("lostUpdate"))
        let result = try #require(Shrinker(target: target).shrink(generated.json))
        #expect(Shrinker.shows(result.judged, target))
        let original = try #require(Shrinker.load(generated.json))
        let minimal = try #require(Shrinker.load(result.scenario))
        #expect(minimal.devices.count <= 2 && minimal.devices.count <= original.devices.count)
        #expect(minimal.steps.count <= 6 && minimal.steps.count < original.steps.count)
        // Shortened values stay distinct: two devices saving the same text would be another story.
        let contents = ScenarioText.render(result.scenario).split(separator: "\n").compactMap { line -> Substring? in
            guard let range = line.range(of: "\"content\":") else { return nil }
            return line[range.upperBound...]
        }
        #expect(contents.count >= 2 && Set(contents).count == contents.count, "\(contents)")
        // Deterministic: a second shrink gives the same file.
        let again = try #require(Shrinker(target: target).shrink(generated.json))
        #expect(ScenarioText.render(again.scenario) == ScenarioText.render(result.scenario))
    }

    @Test func minimalScenarioAssertsTheAnomaly() throws {
        let generated = FindingTests.runner.generate(37)
        let target = ShrinkTarget.fingerprint(FindingTests.airplane, .find("lostUpdate"))
        let result = try #require(Shrinker(target: target).shrink(generated.json))
        let minimal = MinimalScenario.finish(result.scenario, judged: result.judged, target: target, from: "test")
        let run = try #require(Shrinker.load(minimal))
        #expect(ScenarioRunner.run(run).passed) // under --find the expectations say the anomaly appears
        let promise = MinimalScenario.finish(result.scenario, judged: result.judged, target: .fingerprint(FindingTests.airplane, .find("lostUpdate")), from: "test")
        #expect(ScenarioText.render(promise).contains("\"anomalies\""))
    }

    @Test func promisesAllowTheDocumentedLossesOnly() {
        // Under a lossless policy the same seed's concurrent edits are kept: no finding.
        let lossless = SeedRunner(profile: .documents, policies: FuzzPolicies(documents: [.keepBoth], records: [.merge]), rule: .promises)
        #expect(lossless.run(37).findings.isEmpty)
        // Under lastWriterWins the lost edit is the policy's documented behaviour, not a broken promise.
        let lossy = SeedRunner(profile: .documents, policies: FuzzPolicies(documents: [.lastWriterWins], records: [.merge]), rule: .promises)
        #expect(!lossy.run(37).findings.contains { $0.kind == "lostUpdate" })
    }

    /// Records seed 16: G's body edit was replaced by F's (which had seen it), and F's lost the
    /// both-sides merge to G's later edit made while signed out. Both sides changed the field:
    /// the policy's documented loss, not a broken promise.
    @Test func aValueWhoseSuccessorLostTheBothSidesMergeIsADocumentedLoss() {
        let records = SeedRunner(profile: .records, policies: .lossless, rule: .promises)
        #expect(!records.run(16).findings.contains { $0.fingerprint == "lostUpdate.records.merge.record-save.by-record-save" })
    }

    /// Records seed 85: D's body edit was removed by A's unconditional delete, then C's save
    /// re-created the record (after `unknownItem`) with its own body. The loss is the delete's,
    /// which the policy table documents.
    @Test func anEditAnUnconditionalDeleteRemovedIsADocumentedLossEvenIfTheRecordComesBack() {
        let records = SeedRunner(profile: .records, policies: .lossless, rule: .promises)
        #expect(!records.run(85).findings.contains { $0.fingerprint == "lostUpdate.records.merge.record-save.by-record-save" })
        // Seed 113: a zone deleted while signed out reaches the next account and removes an
        // edit there; the other devices learn of it by fetching.
        #expect(!records.run(113).findings.contains { $0.fingerprint == "lostUpdate.records.merge.record-save.by-record-save" })
    }

    /// Mixed seeds 257, 1042 and 1635: a zone deletion (by an app, or by the user from Settings)
    /// removed edits its device had never seen — the documented zone-deletion loss.
    @Test func anEditAZoneDeletionRemovedIsADocumentedLoss() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        for seed: UInt64 in [257, 1042, 1635] {
            let lost = mixed.run(seed).findings.filter { $0.fingerprint.hasPrefix("lostUpdate.records.") }
            #expect(lost.isEmpty, "seed \(seed): \(lost.map(\.fingerprint))")
        }
    }

    /// Mixed seed 1218: A's first title edit was replaced by its own atomic save, which lost the
    /// both-sides merge to B's: the earlier edit is lost with the later one (documented).
    @Test func anEarlierEditReplacedOnItsDeviceByALaterLosingEditIsADocumentedLoss() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        #expect(!mixed.run(1218).findings.contains { $0.fingerprint.hasPrefix("lostUpdate.records.") })
    }

    /// Shrunk from mixed seed 1133: B's delete, held back by throttling, met A's later edit on a
    /// fetch and removes it (deletes are unconditional): the documented delete loss, although
    /// B's device showed the delete long before A's edit.
    @Test func anEditAPendingDeleteMetIsADocumentedLoss() throws {
        guard case .success(let file) = ScenarioLoader.parse(text: """
        {"format": "synclab/1", "name": "t", "seed": 1133, "network": {"latency": {"dist": "uniform", "min": "30ms", "max": "56ms"}, "loss": 0.2}, "engine": {"documents": {"conflict": "keepBoth"}, "records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "65ms", "op": "cloud.throttle", "for": "45678ms", "retryAfter": "1ms"}, {"at": "37585ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B2"}}, {"at": "37585ms", "device": "A", "op": "doc.save", "path": "note0.txt", "content": "v\\n"}, {"at": "37585ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "81140ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "A3"}}, {"at": "94812ms", "device": "A", "op": "account.signOut"}, {"at": "114556ms", "device": "A", "op": "account.signIn", "account": "main"}, {"at": "136192ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "A1"}}]}
        """, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        #expect(judged.outcome.report.anomalies.contains { $0.kind == .lostUpdate && $0.write == "A:3" }, "the edit is lost")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// Mixed seed 454: a zone deleted while signed out is deleted in the account signed into
    /// next, after edits made there meanwhile: the documented zone-deletion loss.
    @Test func aZoneDeletedWhileSignedOutCountsAsDeletedAfterEditsInTheNextAccount() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        #expect(!mixed.run(454).findings.contains { $0.fingerprint.hasPrefix("lostUpdate.records.") })
    }

    /// Mixed seed 588: A's zone delete, held back, reached the cloud after D re-created the zone
    /// and saved there: the documented zone-deletion loss.
    @Test func aZoneDeleteThatReachesTheCloudLateIsADocumentedLoss() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        #expect(!mixed.run(588).findings.contains { $0.fingerprint.hasPrefix("lostUpdate.records.") })
    }

    /// Mixed seed 1133: B's delete, held back by throttling and loss, reached the cloud after A's
    /// edit and removed it; no device showed the meeting. A had never seen the delete: the edit
    /// was concurrent with it, the documented delete loss.
    @Test func anEditConcurrentWithAnotherDevicesDeleteIsADocumentedLoss() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        #expect(!mixed.run(1133).findings.contains { $0.fingerprint.hasPrefix("lostUpdate.records.") })
    }

    /// Mixed seeds 241 and 1149: a fetched version of a record whose own save was in doubt was
    /// shown in part (its other fields beside the pending one), or the rest of its atomic call
    /// was shown while it waited. Both now wait for the retry's answer.
    @Test func aRecordInDoubtAndItsAtomicCallWaitTogether() {
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        for seed: UInt64 in [241, 1149] {
            let atomic = mixed.run(seed).findings.filter { $0.kind == "atomicityViolation" }
            #expect(atomic.isEmpty, "seed \(seed): \(atomic.map(\.fingerprint))")
        }
    }

    /// Shrunk from records seed 1054: B's title B:1 reached the cloud, D saw it and replaced it,
    /// and D's edit lost the both-sides merge to B's edit made while signed out (then edited
    /// again). B:1 goes with the edit that replaced it: the documented both-sides loss, though
    /// the checker names B's later edit, not the merge's winner, as what replaced it.
    @Test func aValueASuccessorOnAnotherDeviceReplacedGoesWithThatSuccessorsLostMerge() throws {
        guard case .success(let file) = ScenarioLoader.parse(text: """
        {"format": "synclab/1", "name": "t", "seed": 1054, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "D"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B4"}}, {"at": "713ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "D4"}}, {"at": "713ms", "device": "B", "op": "account.signOut"}, {"at": "714ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B2"}}, {"at": "714ms", "device": "B", "op": "account.signIn", "account": "main"}, {"at": "1106ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B3"}}]}
        """, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        #expect(judged.outcome.report.anomalies.contains { $0.kind == .lostUpdate && $0.write == "B:1" }, "the value is lost")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// Shrunk from mixed seed 3654: A's atomic save of r1 and r0 is refused for the storage
    /// quota, reported on r1. The call stays pending whole (SPEC §4.3), so A shows r0 too, which
    /// the cloud lacks: the quota boundary covers every record the refused call changed.
    @Test func aDivergenceOnAnotherRecordOfARefusedAtomicCallIsHeldForQuota() throws {
        guard case .success(let file) = ScenarioLoader.parse(text: """
        {"format": "synclab/1", "name": "t", "seed": 3654, "engine": {"documents": {"conflict": "keepVersions"}, "records": {"conflict": "merge"}}, "limits": {"storage": 336}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "doc.append", "path": "note1.txt", "text": "B5xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n"}, {"at": "0ms", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "A3", "body": "A3xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}, {"type": "Note", "name": "r0", "fields": {"body": "A3"}}]}]}
        """, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        #expect(judged.outcome.report.anomalies.contains { $0.kind == .divergence && $0.item == "Z/r0" }, "A shows the refused call's other record")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// Shrunk from records seeds 4198 and 4792: a device signed out saves a field (E:1, C:1 and
    /// C:2), then replaces it with a later edit still pending when sign-out discards it (E:2, C:3).
    /// The earlier edits never reached the cloud: they went with the discarded one (SPEC §4.3),
    /// though the checker names the write that finally replaced them, not the discard.
    @Test func aPendingValueReplacedByADiscardedEditGoesWithTheDiscard() throws {
        for (text, lost) in [(#"""
        {"format": "synclab/1", "name": "t", "seed": 4198, "network": {"latency": {"dist": "lognormal", "median": "24ms", "sigma": 0.5}, "loss": 0.05}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "D"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "E", "op": "account.signOut"}, {"at": "0ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "D4"}}, {"at": "0ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "E6"}}, {"at": "130ms", "device": "E", "op": "account.signIn", "account": "main"}, {"at": "130ms", "device": "E", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "E5", "n": 9}}]}, {"at": "303ms", "device": "E", "op": "account.signOut"}, {"at": "303ms", "device": "E", "op": "account.signIn", "account": "main"}, {"at": "307ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A1"}}]}
        """#, ["E:1"]), (#"""
        {"format": "synclab/1", "name": "t", "seed": 4792, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "C"}], "steps": [{"at": "0ms", "device": "C", "op": "account.signOut"}, {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C5"}}, {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C4"}}, {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C2"}}, {"at": "0ms", "device": "C", "op": "account.signIn", "account": "main"}, {"at": "0ms", "device": "C", "op": "account.signOut"}, {"at": "0ms", "device": "C", "op": "account.signIn", "account": "main"}, {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C3"}}]}
        """#, ["C:1", "C:2"])] {
            guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
            let judged = ScenarioRunner.run(run)
            let replaced = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate && $0.replacedBy != nil }.compactMap(\.write)
            #expect(replaced == lost, "the earlier edits are reported lost, replaced by a later write")
            #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
        }
    }

    /// Records seed 3460, shrunk: A and F, signed out, each create r1 with n = 8 (A:1, F:1); C,
    /// signed in, creates it with n = 3 a millisecond later (C:1). F merges its equal value with
    /// A's into one derived write (F:m1), which then loses C's both-sides merge by modification
    /// date: A:1 and F:1 lose the same comparison (a field both sides changed, SPEC §4.3), though
    /// the checker says the resolution kept a version without them.
    @Test func editsMergedIntoALosingDerivedWriteLoseItsComparison() throws {
        let text = #"""
        {"format": "synclab/1", "name": "t", "seed": 3460, "accounts": ["main", "other"], "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C"}, {"id": "F"}], "steps": [{"at": "0ms", "device": "A", "op": "account.signOut"}, {"at": "0ms", "device": "C", "op": "account.signIn", "account": "other"}, {"at": "0ms", "device": "F", "op": "account.signOut"}, {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"n": 8}}, {"at": "0ms", "device": "A", "op": "account.signIn", "account": "other"}, {"at": "0ms", "device": "F", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"n": 8}}, {"at": "1ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "C2", "n": 3}}]}, {"at": "4ms", "device": "F", "op": "account.signIn", "account": "other"}]}
        """#
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }.compactMap(\.write).sorted()
        #expect(lost == ["A:1", "F:1"], "both equal edits are reported lost")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
