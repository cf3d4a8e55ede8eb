import Foundation
import Testing
@testable import SyncLabReports

/// `synclab report FILE` names the files it was given: a scenario file is said to be one (it
/// was reported as a missing `trace.jsonl`, or with a trace beside it as "result.json: not a
/// SyncLab RESULT" although no file of that name was named).
@Suite("synclab report names what it was given", .serialized)
struct SavedRunNamingTests {
    private func failure(_ path: String) -> String? {
        do { _ = try SavedRun.regenerate(path: path, out: nil); return nil } catch { return error.message }
    }

    @Test func aScenarioFileIsSaidToBeOne() throws {
        let folder = CLIOutputTests.temporary("report-scenario")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scenario = folder + "/todo.json"
        try Data(#"{"format": "synclab/1", "name": "t", "devices": [{"id": "A"}]}"#.utf8).write(to: URL(fileURLWithPath: scenario))
        #expect(failure(scenario)?.hasPrefix("\(scenario) is a scenario file, not a saved run: synclab run \(scenario)") == true, "\(failure(scenario) ?? "")")
        // With a trace beside it, too (it used to be read as the run's result.json).
        let judged = try CLIOutputTests.judged(seed: 3)
        try Data(judged.outcome.trace).write(to: URL(fileURLWithPath: folder + "/trace.jsonl"))
        #expect(failure(scenario)?.hasPrefix("\(scenario) is a scenario file") == true)
    }

    @Test func aResultOfAnotherNameIsNamed() throws {
        let folder = CLIOutputTests.temporary("report-named")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let judged = try CLIOutputTests.judged(seed: 3)
        try Data(judged.outcome.trace).write(to: URL(fileURLWithPath: folder + "/trace.jsonl"))
        let other = folder + "/saved.json"
        try Data(#"{"passed": true}"#.utf8).write(to: URL(fileURLWithPath: other))
        #expect(failure(other) == "\(other): not a SyncLab RESULT (no scenario or variant)")
    }
}
