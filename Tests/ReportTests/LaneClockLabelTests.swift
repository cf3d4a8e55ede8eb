import Foundation
import Testing
import SyncLabReports
import SyncLabResult
import SyncLabScenario
import SyncLabRunner

/// SPEC §8: the timeline shows each device's clock. A whole drift was written `-50000.0` and
/// the label, clipped to its width, read "clock +0s, drift -50000.0 p…", its unit cut.
@Suite("A lane's clock label")
struct LaneClockLabelTests {
    @Test("a whole drift is written without .0, so the label keeps its unit; the lane's title keeps the value as traced")
    func wholeDriftFits() throws {
        let text = """
        {"format": "synclab/1", "name": "drift", "devices": [{"id": "A"}, {"id": "B", "clock": {"offset": "1h", "driftPpm": 500}},
         {"id": "C", "clock": {"driftPpm": -50000}}, {"id": "D", "clock": {"driftPpm": 2.5}}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
        """
        let file = try ScenarioLoader.parse(text: text, path: "drift.json").get()
        let judged = ScenarioRunner.run(file.runs[0])
        let result = Array(ResultDocument.json(judged, file: "drift.json").renderedPretty().utf8)
        let page = TimelinePage.render(try ReportModel(trace: judged.outcome.trace, result: result))
        #expect(page.contains(">clock +1h 00m, drift 500 ppm<"), "\(page.components(separatedBy: "lane-clock").dropFirst().prefix(4).map { $0.prefix(60) })")
        #expect(page.contains(">clock +0s, drift -50000 ppm<"))
        #expect(page.contains(">clock +0s, drift 2.5 ppm<"))
        #expect(page.contains(">clock +0s<"))
        #expect(page.contains("clock offset +0s, drift -50000.0 ppm"))
    }
}
