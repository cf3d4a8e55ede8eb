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

    @Test("a delete made while the document shows in conflict, then the app deleted: the delete took the conflict version it knew and nothing is lost; before, the cloud restored the document and the discarded delete and append were documented losses (documents seed 1375)")
    func anAppendFoldedIntoADiscardedDeleteGoesWithIt() throws {
        let text = #"""
        {"format": "synclab/1", "name": "t", "seed": 1375, "network": {"latency": {"dist": "uniform", "min": "25ms", "max": "122ms"}, "loss": 0.14}, "engine": {"documents": {"conflict": "keepVersions"}}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "334ms", "device": "B", "op": "device.crash"}, {"at": "348ms", "device": "A", "op": "doc.save", "path": "note0.txt", "content": "v\n"}, {"at": "208059ms", "device": "B", "op": "device.restart"}, {"at": "208059ms", "device": "B", "op": "doc.append", "path": "note0.txt", "text": "B\n"}, {"at": "220785ms", "device": "B", "op": "doc.delete", "path": "note0.txt"}, {"at": "220965ms", "device": "B", "op": "app.delete"}, {"at": "220965ms", "device": "B", "op": "app.install"}, {"at": "221112ms", "device": "B", "op": "doc.append", "path": "note0.txt", "text": "B4\n"}]}
        """#
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }
        // Since session 13 (spec22) B's delete, made while B showed the document in conflict
        // with A:1, takes A:1 with it (ARCHITECTURE.md, "deleting a document its device shows in
        // conflict"): the cloud applies it instead of restoring the document from A:1, so it is
        // applied before the app deletion gives it up, and what it removed it had seen. Before,
        // the cloud restored A:1, B:2 and the append B:1 under it went with the app deletion,
        // and both were documented losses.
        #expect(lost.isEmpty, "\(lost)")
        #expect(judged.outcome.report.conflicts == 1, "no restore: the delete is not concurrent with A:1")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
