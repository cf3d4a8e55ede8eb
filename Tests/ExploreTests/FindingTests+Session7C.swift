import Testing
import SyncLabExplore
import SyncLabScenario
import SyncLabRunner

/// Session 7 (issue 12): a lost update first taken for a promise boundary, which the engine's
/// fix made impossible (docs/FUZZING.md, "Session 7: divergence and resurrection findings").
extension FindingTests {
    @Test("a pending value replaced by a later plain save the cloud refuses for the record's size is put back and goes out: no lost update, so no boundary is needed (mixed seed 3338, records seed 7484)")
    func aPendingValueReplacedByARefusedSaveIsKept() throws {
        for (text, lost) in [(#"""
        {"format": "synclab/1", "name": "t", "seed": 3338, "limits": {"records": {"recordBytes": 154}}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}}, {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 7}}, {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 6}}, {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B13xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}]}
        """#, "B:2"), (#"""
        {"format": "synclab/1", "name": "t", "seed": 7484, "limits": {"records": {"recordBytes": 152}}, "network": {"latency": {"dist": "pareto", "scale": "28ms", "shape": 2.8}, "loss": 0.25}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A6"}}, {"at": "39595ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A9"}}, {"at": "39595ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A11xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}]}
        """#, "A:3")] {
            guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
            let judged = ScenarioRunner.run(run)
            let refused = judged.outcome.report.anomalies.filter { $0.kind == .quotaViolation }
            #expect(!refused.isEmpty, "the later save is refused for the record's size, and reported")
            #expect(!judged.outcome.report.anomalies.contains { $0.kind == .lostUpdate && $0.write == lost }, "the earlier edit is put back and uploaded")
            #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
        }
    }
}
