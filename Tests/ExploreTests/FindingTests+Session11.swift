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
        let path = #filePath.replacingOccurrences(of: "Tests/ExploreTests/FindingTests+Session11.swift",
                                                  with: "Tests/LibraryTests/Fixtures/records-seed-5324-removal-dated-by-delete.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: "records-seed-5324.json"), let run = file.runs.first else {
            Issue.record("the scenario does not load"); return
        }
        let judged = ScenarioRunner.run(run)
        let anomalies = judged.outcome.report.anomalies
        #expect(!anomalies.contains { $0.kind == .atomicityViolation }, "B never shows A's creation without its body")
        #expect(!anomalies.contains { $0.kind == .lostUpdate && $0.write == "A:2" }, "A's body survives the merge")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
