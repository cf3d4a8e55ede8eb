import Foundation
import SyncLabJSON
import SyncLabResult

/// Writes a run's files (SPEC §8) into a folder: `trace.jsonl`, `result.json`, `timeline.html`,
/// `report.md`. Creates the folder; replaces files that are there.
///
/// `timeline.html` and `report.md` are rendered from the bytes of `trace.jsonl` and
/// `result.json` just written (never from the simulator's memory), exactly as `synclab report`
/// renders them from the saved files, so the two give the same bytes by construction.
public enum ReportWriter {
    /// Writes all four files of one run.
    /// - Returns: the report model, for a variant index.
    @discardableResult
    public static func write(_ judged: JudgedRun, file: String, to folder: String) throws -> ReportModel {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = Array(ResultDocument.json(judged, file: file).renderedPretty().utf8)
        try Data(judged.outcome.trace).write(to: URL(fileURLWithPath: folder + "/trace.jsonl"))
        try Data(result).write(to: URL(fileURLWithPath: folder + "/result.json"))
        return try writeRendered(trace: judged.outcome.trace, result: result, to: folder)
    }

    /// Renders `timeline.html` and `report.md` from a saved run's bytes into `folder`.
    /// - Returns: the report model.
    @discardableResult
    public static func writeRendered(trace: [UInt8], result: [UInt8], to folder: String) throws -> ReportModel {
        let model = try ReportModel(trace: trace, result: result)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write(TimelinePage.render(model), to: folder + "/timeline.html")
        try write(MarkdownReport.render(model), to: folder + "/report.md")
        return model
    }

    public static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
