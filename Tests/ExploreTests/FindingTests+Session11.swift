import Foundation
import Testing
import SyncLabExplore
import SyncLabScenario
import SyncLabRunner

/// Session 11: a broken records `merge` promise found by the 10,000-seed campaign once the heal
/// fetched at once (docs/FUZZING.md).
extension FindingTests {
    /// A deletes r1 and re-creates it with `body`; E, which deleted r1 before that and had not
    /// seen it, re-creates r1 with only `n`. E's save removes the fields of the record it last saw
    /// as its own write; dated by that save, the removal beat A's later `body` in the merge, and B
    /// showed A's creation without its body. Dated by E's delete, A's body wins.
    @Test("a field set after a delete wins the merge over the removal a later re-creation on the deleting device carries (records seed 5324)")
    func aRemovalIsDatedByTheDelete() throws {
        let judged = try Self.runFixture("records-seed-5324-removal-dated-by-delete.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(!anomalies.contains { $0.kind == .atomicityViolation }, "B never shows A's creation without its body")
        #expect(!anomalies.contains { $0.kind == .lostUpdate && $0.write == "A:2" }, "A's body survives the merge")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// E deletes zone Z; D, not having seen it, edits r0 and r1 in one atomic call; A, having
    /// seen it, makes r0 again with only `n`. D's merge took the fields A's new r0 lacks for edits
    /// made at its creation and dropped D's r0 part, while the r1 part went up: B showed the
    /// call in part. The absence is the delete's doing, and an edit wins over a delete.
    @Test("an edit wins the merge over a field a record made again elsewhere lacks (records seed 4745, minimal)")
    func anEditWinsOverTheAbsenceInARecordMadeAgain() throws {
        let judged = try Self.runFixture("records-seed-4745-edit-wins-over-recreation-absence.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(!anomalies.contains { $0.kind == .atomicityViolation }, "B never shows D's atomic call in part")
        #expect(!anomalies.contains { $0.kind == .lostUpdate && $0.write == "D:4" }, "D's edits of r0 survive the merge")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// The unshrunk run of seed 4745: A makes r0 again with title, body and n after D's atomic
    /// edit of r0 and r1, unseen; D's merge gives r0's title and body to A's later edit (both
    /// sides changed them: the documented lost update) and keeps the call's r1 part. B, its own
    /// save of r0 in doubt, holds r0's newer version and shows r1's part beside r0's title from
    /// before the call: that documented loss, not a finding.
    @Test("an atomic call's field lost to the merge's later edit is a documented loss, not a half call (records seed 4745)")
    func anAtomicCallsFieldLostToTheMergeIsDocumented() throws {
        let judged = try Self.runFixture("records-seed-4745-atomic-call-loses-one-field-to-merge.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(anomalies.contains { $0.kind == .lostUpdate && $0.write == "D:7" && $0.field == "title" }, "the merge's loss is reported")
        #expect(anomalies.contains { $0.kind == .atomicityViolation && $0.write == "D:7" && $0.field == "title" }, "the checker still reports the half call")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty, "merge documents that loss")
    }

    static func runFixture(_ name: String) throws -> ScenarioRunner.Judged {
        let path = #filePath.replacingOccurrences(of: "Tests/ExploreTests/FindingTests+Session11.swift", with: "Tests/LibraryTests/Fixtures/\(name)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: name), let run = file.runs.first else {
            throw FixtureError.doesNotLoad(name)
        }
        return ScenarioRunner.run(run)
    }

    enum FixtureError: Error { case doesNotLoad(String) }
}
