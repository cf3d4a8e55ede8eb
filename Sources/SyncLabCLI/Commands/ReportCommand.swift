import SyncLabReports

/// `synclab report RESULT_OR_TRACE [--out DIR]`: regenerates `timeline.html` and `report.md` from
/// a saved run, byte for byte what `synclab run` wrote.
enum ReportCommand {
    static let usage = """
    usage: synclab report RESULT_OR_TRACE|DIR [--out DIR]

    Regenerates timeline.html and report.md from a saved run: a result.json or trace.jsonl (the
    other file is the one beside it), a run's folder, or a scenario's folder of variant runs (the
    variant comparison is regenerated too).
      --out DIR   write the reports (with a copy of the run) here instead of beside the run
    A trace.jsonl whose digest is not the traceDigest its result.json records is refused: the
    two files come from different runs.
    Exit status: 0 written, 2 bad input or usage.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        do { parsed = try Arguments(arguments, valued: ["--out"], flags: ["--help"]) } catch {
            Console.error("synclab report: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            Console.error("synclab report: name one result.json, trace.jsonl or run folder\n\(usage)"); return .badInput
        }
        if let out = parsed.value("--out") {
            do { try ScenarioFiles.checkOutputs(folders: [out], junit: nil) } catch {
                Console.error("synclab report: \(error.message)"); return .badInput
            }
        }
        do {
            let folders = try SavedRun.regenerate(path: path, out: parsed.value("--out"))
            for folder in folders { Console.out("reports: \(folder)/") }
            return .success
        } catch {
            Console.error("synclab report: \(error.message)")
            return .badInput
        }
    }
}
