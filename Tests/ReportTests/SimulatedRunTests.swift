import Foundation
import Testing
import SyncLabReports
import SyncLabResult
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

@Suite("Reports of simulated runs")
struct SimulatedRunTests {
    /// A small KVS scenario with hostile strings where a scenario may put them.
    static let scenario = """
    {
      "format": "synclab/1",
      "name": "<script>alert('x')</script> & ]]> \\"q\\"",
      "seed": 3,
      "devices": [ {"id": "A"}, {"id": "B", "clock": {"offset": "-5m"}} ],
      "steps": [
        {"at": "10s", "device": "A", "op": "kvs.set", "key": "<k&>", "value": "</failure>"},
        {"at": "40s", "device": "B", "op": "kvs.set", "key": "<k&>", "value": "light"}
      ],
      "expect": { "converged": false }
    }
    """

    static func judged() throws -> ScenarioRunner.Judged {
        let file: ScenarioFile
        switch ScenarioLoader.parse(text: scenario, path: "hostile.json") {
        case .success(let parsed): file = parsed
        case .failure(let errors): throw errors
        }
        return ScenarioRunner.run(file.runs[0])
    }

    @Test("JUnit XML stays well-formed with hostile scenario names and values")
    func junitWellFormed() throws {
        let judged = try Self.judged()
        let xml = JUnitReport.render([.run(file: "Scenarios/<evil>&.json", judged: judged)])
        #expect(WellFormedXML.problem(xml) == nil, "\(WellFormedXML.problem(xml) ?? "")\n\(xml)")
        #expect(xml.contains("<failure"))
        #expect(!xml.contains("<script"))
    }

    @Test("a simulated run's reports are well-formed and identical when regenerated from its files")
    func simulatedRunRegenerates() throws {
        let judged = try Self.judged()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-sim-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("run").path
        try ReportWriter.write(judged, file: "hostile.json", to: first)
        let page = try String(contentsOfFile: first + "/timeline.html", encoding: .utf8)
        #expect(WellFormedXML.problem(page) == nil)
        #expect(!page.contains("<script"))
        let again = root.appendingPathComponent("again").path
        _ = try SavedRun.regenerate(path: first + "/result.json", out: again)
        for name in ["timeline.html", "report.md"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: first + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: again + "/" + name)), "\(name)")
        }
    }
}
