import Foundation
import SyncLabJSON

/// `synclab report`: regenerates `timeline.html` and `report.md` from a saved run.
///
/// Given `result.json` or `trace.jsonl`, the other file is the one beside it; the reports go
/// into that folder, or into `out`. Given a folder, it is either one run's folder or a scenario's
/// output folder with a subfolder per variant, whose comparison is regenerated as well.
public enum SavedRun {
    /// Bad input: a path that is not a saved run, or a file that cannot be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
        init(_ message: String) { self.message = message }
    }

    /// - Returns: the folders written, in order.
    public static func regenerate(path: String, out: String?) throws(Failure) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure("\(path): no such file or folder")
        }
        if !isDirectory.boolValue {
            let folder = parent(path)
            let name = (path as NSString).lastPathComponent
            // A scenario file named by mistake: said plainly, not as a missing trace.jsonl or as
            // "result.json: not a SyncLab RESULT" (the file was not called result.json).
            if !name.hasSuffix(".jsonl"), let bytes = readBytes(path), let node = try? JSON5Reader.parse(bytes: bytes), node["format"] != nil, node["scenario"] == nil {
                throw Failure("\(path) is a scenario file, not a saved run: synclab run \(path) runs it and writes its reports; synclab report redraws them from the result.json or trace.jsonl it wrote")
            }
            let trace = name.hasSuffix(".jsonl") ? path : join(folder, "trace.jsonl")
            let result = name.hasSuffix(".jsonl") ? join(folder, "result.json") : path
            let target = out ?? folder
            _ = try regenerateRun(trace: trace, result: result, to: target)
            return [target]
        }
        if FileManager.default.fileExists(atPath: join(path, "result.json")) {
            let target = out ?? path
            _ = try regenerateRun(trace: join(path, "trace.jsonl"), result: join(path, "result.json"), to: target)
            return [target]
        }
        let children: [String]
        do { children = try FileManager.default.contentsOfDirectory(atPath: path) } catch { throw Failure("\(path): cannot list: \(error)") }
        let variants = children.filter { FileManager.default.fileExists(atPath: join(join(path, $0), "result.json")) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard !variants.isEmpty else { throw Failure("\(path): neither a saved run (result.json, trace.jsonl) nor a folder of variant runs") }
        let root = out ?? path
        var written: [String] = []
        var models: [ReportModel] = []
        for variant in variants {
            let source = join(path, variant), target = join(root, variant)
            var model = try regenerateRun(trace: join(source, "trace.jsonl"), result: join(source, "result.json"), to: target)
            // Link to the folder the run is in, whatever name its variant has.
            model.folder = variant
            models.append(model)
            written.append(target)
        }
        do { try ReportSet.writeIndex(models, to: root) } catch { throw Failure("\(root): cannot write: \(error)") }
        written.append(root)
        return written
    }

    /// The run an earlier `synclab run` of `file` left in `folder` for `variant`, or nil when the
    /// folder holds none (never run, another file's or variant's, unreadable, or a trace that is
    /// not its result's).
    static func earlierRun(in folder: String, variant: String, file: String) -> ReportModel? {
        guard let traceBytes = readBytes(join(folder, "trace.jsonl")), let resultBytes = readBytes(join(folder, "result.json")),
              let model = try? ReportModel(trace: traceBytes, result: resultBytes),
              model.variant == variant, StaleReports.stem(model.file) == StaleReports.stem(file),
              model.traceDigest == ResultDocument.traceDigest(traceBytes) else { return nil }
        return model
    }

    static func regenerateRun(trace: String, result: String, to folder: String) throws(Failure) -> ReportModel {
        guard let traceBytes = readBytes(trace) else { throw Failure("\(trace): cannot read (a saved run needs trace.jsonl beside result.json)") }
        guard let resultBytes = readBytes(result) else { throw Failure("\(result): cannot read (a saved run needs result.json beside trace.jsonl)") }
        let model: ReportModel
        do { model = try ReportModel(trace: traceBytes, result: resultBytes) } catch {
            // The reader names the files by their usual names; name the ones given.
            var message = error.message
            if message.hasPrefix("result.json") { message = result + message.dropFirst("result.json".count) }
            else if message.hasPrefix("trace.jsonl") { message = trace + message.dropFirst("trace.jsonl".count) }
            else { message = "\(folder): " + message }
            throw Failure(message)
        }
        try checkDigest(model.traceDigest, trace: traceBytes, tracePath: trace, resultPath: result)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try copy(trace, to: join(folder, "trace.jsonl"))
            try copy(result, to: join(folder, "result.json"))
            try ReportWriter.write(TimelinePage.render(model), to: join(folder, "timeline.html"))
            try ReportWriter.write(MarkdownReport.render(model), to: join(folder, "report.md"))
        } catch {
            throw Failure("\(folder): cannot write: \(error)")
        }
        return model
    }

    /// Refuses a trace that is not the one the result was written with (two files from two runs
    /// would draw one run's timeline under the other's verdict): the digest `synclab run`
    /// recorded in result.json must be the trace's digest, computed as the runner computes it.
    static func checkDigest(_ recorded: String?, trace traceBytes: [UInt8], tracePath: String, resultPath: String) throws(Failure) {
        guard let recorded else {
            throw Failure("\(resultPath): no traceDigest, so it cannot be matched with \(tracePath) (is it a result.json written by synclab run?)")
        }
        let actual = ResultDocument.traceDigest(traceBytes)
        guard recorded == actual else {
            throw Failure("\(tracePath) is not the trace of \(resultPath): the result records traceDigest \(recorded), the trace's digest is \(actual). The two files come from different runs; put the run's own trace.jsonl beside its result.json, or run the scenario again")
        }
    }

    /// A file's bytes, read straight into one array (through `Data` they were copied twice,
    /// which for a trace of hundreds of megabytes cost more than reading it); nil if unreadable.
    static func readBytes(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = read(handle.fileDescriptor, buffer.baseAddress! + count, buffer.count - count)
                if got <= 0 { failed = got < 0; break }
                count += got
            }
        }
        return failed ? nil : bytes
    }

    /// Copies a saved file into the folder the reports go to, unless it is already there.
    static func copy(_ source: String, to target: String) throws {
        guard URL(fileURLWithPath: source).standardizedFileURL != URL(fileURLWithPath: target).standardizedFileURL else { return }
        if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    static func parent(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    static func join(_ folder: String, _ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
}
