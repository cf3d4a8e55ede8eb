import Testing
import SyncLabExplore
import SyncLabScenario
import SyncLabRunner

/// Session 7 (issue 12): records `clientWins` overwriting one field of another device's atomic
/// call (docs/FUZZING.md, "Open: the lossy records policies").
extension FindingTests {
    @Test("clientWins putting a field the resolving device never edited back over another device's atomic call leaves the cloud with half that call: the documented overwrite (a lost update on that field), not a finding (records seeds 46, 23)")
    func aClientWinsOverwriteOfAnAtomicCallIsDocumented() throws {
        for (text, write, field) in [(#"""
        {"format": "synclab/1", "name": "t", "seed": 46, "engine": {"records": {"conflict": "clientWins"}}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A2"}}, {"at": "410ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A1", "n": 0}}, {"at": "410ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "B4"}}]}
        """#, "A:2", "body"), (#"""
        {"format": "synclab/1", "name": "t", "seed": 23, "network": {"latency": {"dist": "uniform", "min": "18ms", "max": "139ms"}}, "engine": {"records": {"conflict": "clientWins"}}, "devices": [{"id": "B"}, {"id": "C"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B4"}}, {"at": "1430ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "C1"}}, {"at": "1430ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "B3"}}, {"type": "Note", "name": "r0", "fields": {"title": "B3", "body": "B3", "n": 5}}]}]}
        """#, "B:2", "title")] {
            guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
            let judged = ScenarioRunner.run(run)
            let anomalies = judged.outcome.report.anomalies
            #expect(anomalies.contains { $0.kind == .lostUpdate && $0.write == write && $0.field == field }, "the overwrite is reported as the call's lost update")
            #expect(anomalies.contains { $0.kind == .atomicityViolation && $0.write == write && $0.field == field }, "the checker still reports the half call")
            #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty, "clientWins documents that overwrite")
        }
    }
}
