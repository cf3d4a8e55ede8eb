import Testing
import SyncLabExplore
import SyncLabScenario
import SyncLabRunner

/// Session 13 (fix24): since spec22 a `keepBoth` copy refused for space no longer holds back the
/// resolve, so an app deletion or account switch can discard the pending copy after the resolve
/// removed the conflict version it copies. The user's discard lost that version, as it loses
/// any pending edit: the checker says so and the judge excuses it (documents seed 1773).
extension FindingTests {
    @Test("a keepBoth copy refused for space, then discarded by app deletion after the resolve: the lost version is explained by the discard and judged no finding (documents seed 1773, minimal)")
    func aVersionLostWithItsDiscardedCopyIsExcused() throws {
        let text = #"""
        {"format": "synclab/1", "name": "t", "seed": 1773, "limits": {"storage": 271}, "engine": {"documents": {"conflict": "keepBoth"}},
         "devices": [{"id": "C"}, {"id": "D", "clock": {"offset": "-79703ms"}}],
         "steps": [{"at": "0ms", "device": "D", "op": "airplane.on"}, {"at": "0ms", "device": "C", "op": "doc.append", "path": "note0.txt", "text": "C\n"},
                   {"at": "163ms", "device": "C", "op": "airplane.on"},
                   {"at": "163ms", "device": "D", "op": "doc.append", "path": "note0.txt", "text": "D2xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"},
                   {"at": "35253ms", "device": "D", "op": "airplane.off"}, {"at": "35623ms", "device": "D", "op": "app.delete"}]}
        """#
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json"), let run = file.runs.first else { Issue.record("the scenario does not load"); return }
        let judged = ScenarioRunner.run(run)
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }
        // The loss itself is real and reported (never silent); what it is owed to is the discard.
        #expect(lost.map(\.write) == ["D:1"], "\(lost)")
        let explanation = lost.first?.explanation ?? ""
        #expect(explanation.contains(#"its copy D:m1 on "note0 (conflict D 1).txt" was then discarded by app deletion before it reached the cloud"#), "\(explanation)")
        // Before: a broken keepBoth promise, lostUpdate.documents.keepBoth.doc-append-offline.by-doc-append.
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
