import Foundation
import Testing
import SyncLabExplore
import SyncLabRunner
import SyncLabScenario

/// Session 16: what the generator's new SPEC §5 inputs (`ExtraInput`) showed (docs/FUZZING.md).
extension FindingTests {
    /// A posts r0 in the public database without subscribing to it; B subscribes; C saves r0
    /// too and its merged save lands just after the heal's one foreground fetch of A. Only
    /// subscribers are pushed public changes, so A ends showing its own body: the promise table
    /// leaves that divergence out, as it leaves out the default zone's (SPEC §4.3). Before the
    /// judge knew, this was `divergence.records.merge.view` in 42 records seeds of 1..5000.
    @Test("a public change landing after the last fetch of a device not subscribed to the public database is a divergence by design, not a finding (records seed 184, minimal)")
    func aPublicChangeAfterTheLastFetchIsNoFinding() throws {
        let judged = try Self.runScenario("fuzz-records-public-change-after-last-fetch.json")
        let divergences = judged.outcome.report.anomalies.filter { $0.kind == .divergence }
        #expect(divergences.map(\.device) == ["A"], "only the device without a public subscription diverges")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// The same run with A subscribed too: A is pushed C's body and converges, so the judge's
    /// leave is about the missing subscription, nothing else.
    @Test("the same public change reaches a device that subscribed to the public database")
    func aSubscribedDeviceIsPushedThePublicChange() throws {
        let judged = try Self.runScenario("fuzz-records-public-change-after-last-fetch.json") { text in
            text.replacingOccurrences(of: #"{"at": "0ms", "device": "B", "op": "subscription.create", "database": "public"},"#,
                                      with: #"{"at": "0ms", "device": ["A", "B"], "op": "subscription.create", "database": "public"},"#)
        }
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .divergence })
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// SPEC §4.3: "an app that syncs through the default zone diverges" — B's contact never
    /// reaches A. The checker reports it; the judge does not call it a broken promise.
    @Test("a record of the private default zone that never reaches another device is a divergence by design, not a finding")
    func theDefaultZonesDivergenceIsNoFinding() throws {
        let judged = try Self.runScenario("records-default-zone.json")
        #expect(judged.outcome.report.anomalies.contains { $0.kind == .divergence && $0.device == "A" })
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// Runs `Scenarios/NAME`'s base, its text first changed by `edit`.
    static func runScenario(_ name: String, edit: (String) -> String = { $0 }) throws -> ScenarioRunner.Judged {
        let path = #filePath.replacingOccurrences(of: "Tests/ExploreTests/FindingTests+Session16.swift", with: "Scenarios/\(name)")
        let text = edit(try String(contentsOfFile: path, encoding: .utf8))
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: name), let run = file.runs.first else {
            throw FixtureError.doesNotLoad(name)
        }
        return ScenarioRunner.run(run)
    }
}

extension FindingTests {
    /// F's atomic call (r0 with a photo, r1) is refused for storage and waits whole; F then
    /// deletes r1. Before session 16's merge its one pending change of r1, now the delete, waited
    /// inside that call and was refused with it every time, so the cloud kept D's r1 and the
    /// checker reported it back (records seed 6970). A plain delete now leaves a call refused for
    /// space (fix39) and reaches the cloud: no resurrection, r1 ends deleted, and D's fields of r1
    /// that F had not seen are the documented loss of an unconditional delete, no finding.
    @Test("a delete made after its atomic call was refused for space leaves the call and reaches the cloud: no resurrection, no finding (records seed 6970, minimal)")
    func aDeleteLeavesARefusedCallAndGoesOut() throws {
        let judged = try Self.runScenario("fuzz-records-delete-after-refused-atomic-call-goes-out.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(!anomalies.contains { $0.kind == .resurrection }, "\(anomalies)")
        #expect(anomalies.contains { $0.kind == .lostUpdate && $0.item == "Z/r1" && $0.field == "title" && $0.replacedBy == "F:3" })
        #expect(anomalies.contains { $0.kind == .quotaViolation && $0.device == "F" })
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// F, offline, saves r0 (with a photo) and r1 in one atomic call and deletes r1 at once: its
    /// one pending change of r1 becomes the delete inside the call before anything is sent. The
    /// quota refuses the call whole and it waits, delete included, so the cloud keeps D's r1,
    /// which the delete had seen: the checker reports r1 back and F diverging, both the refused
    /// call held for the quota (pending, not lost), so the judge leaves the resurrection out as
    /// it leaves the divergence out (records seed 6970 as it shrank after fix39's merge).
    @Test("a delete folded into an atomic call before the quota refused it waits with the call: held for the quota, not a finding (records seed 6970, minimal)")
    func aDeleteFoldedIntoARefusedCallIsNoFinding() throws {
        let judged = try Self.runScenario("fuzz-records-delete-folded-into-refused-atomic-call-held.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(anomalies.contains { $0.kind == .resurrection && $0.item == "Z/r1" && $0.replacedBy == "F:3" })
        #expect(anomalies.contains { $0.kind == .quotaViolation && $0.device == "F" })
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// The same delete with no refused call around it reaches the cloud: no resurrection to
    /// excuse, so the leave is about the held call only.
    @Test("without the storage limit the same delete goes out and r1 stays deleted")
    func theSameDeleteGoesOutWithoutTheLimit() throws {
        let judged = try Self.runScenario("fuzz-records-delete-folded-into-refused-atomic-call-held.json") { text in
            text.replacingOccurrences(of: #""storage": 1439"#, with: #""storage": 1000000000"#)
        }
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .resurrection })
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}

extension FindingTests {
    /// The iPad's save of r0 is in flight on a slow link when B deletes zone Z; Ann's iPhone makes
    /// Z again with r2, which the iPad fetches and shows. The slow answer then says `zoneNotFound`:
    /// the engine dropped every record it had of Z, r2 of the new zone included, and nothing
    /// fetched r2 again. Now only the held deletion's incarnation goes.
    @Test("a late zoneNotFound answer keeps the records fetched from the zone made again (mixed seed 25957, minimal)")
    func aLateZoneNotFoundKeepsTheNewZonesRecords() throws {
        let judged = try Self.runScenario("fuzz-records-late-zone-not-found-keeps-the-new-zone.json")
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .divergence }, "\(judged.outcome.report.anomalies)")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
