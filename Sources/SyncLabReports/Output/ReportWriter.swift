import Dispatch
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
        // The trace file (the kernel's copy of up to a gigabyte into the page cache) is written on
        // a background thread while this one hashes the trace for the result and renders the
        // reports from the same bytes: nothing here reads the file back, and every file's bytes
        // are what they would be written one after another.
        let trace = judged.outcome.trace
        let traceWrite = TraceFileWrite()
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            do { try writeBytes(trace, to: folder + "/trace.jsonl") } catch { traceWrite.error = error }
        }
        defer { done.wait() } // the thread reads `trace`: wait for it on every way out
        let result = Array(ResultDocument.json(judged, file: file).renderedPretty().utf8)
        try Data(result).write(to: URL(fileURLWithPath: folder + "/result.json"))
        let model = try writeRendered(trace: trace, result: result, to: folder)
        done.wait()
        if let error = traceWrite.error { throw error }
        return model
    }

    /// What the trace file's background write failed with, read after it finished.
    private final class TraceFileWrite: @unchecked Sendable {
        var error: (any Error)?
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

    /// Writes `bytes` as they lie: `Data(bytes)` would copy them first, and a trace can be
    /// most of the run's memory (2,000 devices writing a key each: 623 MB, the copy the peak).
    static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return try Data().write(to: URL(fileURLWithPath: path)) }
            try Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: raw.count, deallocator: .none)
                .write(to: URL(fileURLWithPath: path))
        }
    }

    public static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
