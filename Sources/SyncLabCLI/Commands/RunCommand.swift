import Foundation
import SyncLabJSON
import SyncLabResult
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner
import SyncLabReports

/// `synclab run FILE|DIR… [--seed N] [--variant NAME] [--out DIR] [--format text|json] [--junit FILE] [--quiet]`
enum RunCommand {
    static let usage = """
    usage: synclab run FILE|DIR… [--seed N] [--variant NAME] [--out DIR] [--format text|json] [--junit FILE] [--quiet]

    Runs scenarios (every variant unless --variant) and writes their reports.
      --seed N          run with this seed (0 to 2^64 - 1) instead of the scenario's
      --variant NAME    run only this variant (`base` is the scenario as written); the comparison
                        in the output folder keeps the other variants as their last run left them
      --out DIR         where reports go (default Reports/<scenario-file-stem>/; with several
                        files, DIR/<scenario-file-stem>/)
      --format F        text (default): a summary per run; json: {"results": [RESULT, …]} on stdout
      --junit FILE      also write a JUnit XML report (a file that did not validate is a test
                        case in error)
      --quiet           print only failures
    Every file is validated first. A file with errors does not run at all; the others still run
    and write their reports, and the exit status is 2. Two files whose reports would share a
    folder (the same stem) are a usage error: nothing runs. Reports an earlier run of the same
    file left that its variants no longer write (a renamed or removed variant's folder) are
    removed, and said; nothing else in the folder is touched.
    Exit status: 0 every expectation held, 1 one failed, 2 bad input or usage.
    """

    /// - Parameter teamProgram: what starts the executable that runs `apps`, for the replay
    ///   lines of runs that use a team's apps.
    static func main(_ arguments: [String], apps: AppNames = .builtIn, factories: AppFactories = AppFactories(),
                     teamProgram: String = ReplayCommand.builtInProgram) -> ExitStatus {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: ["--seed", "--variant", "--out", "--format", "--junit"], flags: ["--quiet", "--help", "--host-records-policies"])
        } catch {
            Console.error("synclab run: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else { Console.error("synclab run: --format takes text or json, got \(format)"); return .badInput }
        var seed: UInt64?
        if let text = parsed.value("--seed") {
            guard let value = UInt64(text) else { Console.error("synclab run: --seed takes a non-negative integer below 2^64, got \(text)"); return .badInput }
            seed = value
        }
        guard !parsed.positional.isEmpty else { Console.error("synclab run: name at least one scenario file or folder\n\(usage)"); return .badInput }
        let files: [String]
        do { files = try ScenarioFiles.expand(parsed.positional) } catch { Console.error("synclab run: \(error.message)"); return .badInput }

        let folders: [String]
        do {
            folders = try ScenarioFiles.outputFolders(files, out: parsed.value("--out"))
        } catch { Console.error("synclab run: \(error.message)"); return .badInput }

        // Validate every file before running any: a bad file never runs at all (not half of it),
        // every bad file's errors are shown, and the valid files still run. Exit status 2 then.
        let annotate = ValidationOutput.annotate
        var loads: [Result<ScenarioFile, ScenarioErrors>] = []
        var invalid = false
        for file in files {
            let load = ScenarioLoader.load(path: file, apps: apps)
            if case .failure(let errors) = load { invalid = true; ValidationOutput.show(errors, annotate: annotate, json: format == "json") }
            loads.append(load)
        }
        // Before any folder is made: a usage error that runs nothing leaves nothing behind (an
        // unknown variant used to leave the empty output folder it had made).
        if let variant = parsed.value("--variant") {
            var missing = false
            for case .success(let scenario) in loads where !scenario.runs.contains(where: { $0.variant == variant }) {
                let names = scenario.runs.map(\.variant).joined(separator: ", ")
                Console.error("\(scenario.path): no variant named \"\(variant)\" (it has: \(names))")
                missing = true
            }
            if missing { return .badInput }
        }
        // Output paths are checked (and the folders made) before anything runs, for the files
        // that will run: a bad --out or --junit is a usage error, not a failure after the run.
        let runnable = loads.indices.filter { if case .success = loads[$0] { true } else { false } }
        do {
            try ScenarioFiles.checkOutputs(folders: runnable.map { folders[$0] }, junit: parsed.value("--junit"))
            let reports = runnable.flatMap { index -> [String] in
                guard case .success(let scenario) = loads[index] else { return [] }
                return ScenarioFiles.reportFiles(in: folders[index], variants: scenario.runs.map(\.variant))
            }
            try ScenarioFiles.checkOverwrites(reports: reports, junit: parsed.value("--junit"), inputs: files)
        } catch {
            Console.error("synclab run: \(error.message)"); return .badInput
        }

        var entries: [JUnitReport.Entry] = []
        // Not in the usage: a comparison aid (docs/LIBRARY.md, "The built-in records apps"). A
        // failure it shows may need it to show again, so the replay lines carry it.
        let hostRecordsPolicies = parsed.has(FindingWriter.hostRecordsPoliciesFlag)
        let replayFlags = hostRecordsPolicies ? [FindingWriter.hostRecordsPoliciesFlag] : []
        var results: [JSON] = []
        var anyFailed = false
        var reportsFailed = false
        for (index, load) in loads.enumerated() {
            let scenario: ScenarioFile
            switch load {
            case .success(let valid): scenario = valid
            case .failure(let errors):
                entries.append(.invalid(file: files[index], errors: errors.errors))
                continue
            }
            let folder = folders[index]
            var runs = scenario.runs
            if let variant = parsed.value("--variant") { runs = runs.filter { $0.variant == variant } }
            var judgedRuns: [ScenarioRunner.Judged] = []
            for var run in runs {
                if let seed { run.seed = seed }
                var options = SimulationOptions()
                options.apps = factories
                options.hostRecordsPolicies = hostRecordsPolicies
                let judged = ScenarioRunner.run(run, options: options)
                judgedRuns.append(judged)
                entries.append(.run(file: scenario.path, judged: judged))
                // Built only when printed: it hashes the whole trace (FNV-1a, a byte at a time),
                // and the report writer builds its own for result.json.
                if format == "json" { results.append(ResultDocument.json(judged, file: scenario.path)) }
                if !judged.passed { anyFailed = true }
                if format == "text" && (!parsed.has("--quiet") || !judged.passed) {
                    Console.out(TextSummary.render(judged, file: scenario.path, teamProgram: teamProgram, replayFlags: replayFlags))
                }
                if annotate && !judged.passed {
                    for expectation in judged.expectations where !expectation.passed {
                        // On the expectation's own line (the file only, for an assert or an invariant).
                        let position = run.expect.position(ofExpectation: expectation.name)
                        ValidationOutput.annotation(json: format == "json", GitHubAnnotation.error(expectation.sentence, file: scenario.path, line: position?.line,
                                                                                                   column: position?.column, title: "\(run.scenarioName) [\(run.variant)]"))
                    }
                }
            }
            let removed: [String]
            do {
                removed = try ReportSet.write(judgedRuns, file: scenario.path, to: folder, variants: scenario.runs.map(\.variant))
            } catch {
                // Said, and the other files still run: one folder that cannot take its reports
                // (a file or folder in the way) used to stop the command there, with no later
                // file run, no JSON document and no --junit file. Exit status 2 at the end.
                let reason = FileErrorReason.text(error, folder: folder)
                Console.error("synclab run: cannot write reports to \(folder): \(reason)")
                if annotate {
                    ValidationOutput.annotation(json: format == "json", GitHubAnnotation.error("cannot write reports to \(folder): \(reason)",
                                                                                               file: scenario.path, title: "reports not written"))
                }
                entries.append(.reportsNotWritten(file: scenario.path, folder: folder, reason: reason))
                reportsFailed = true
                continue
            }
            // `--quiet` prints only failures, each whole: where its reports are is part of it.
            let quiet = parsed.has("--quiet")
            if format == "text" && (!quiet || judgedRuns.contains { !$0.passed }) { Console.out("      reports: \(folder)/") }
            if format == "text" && !quiet {
                // Said, not done silently: reports of variants the file no longer has.
                for name in removed { Console.out("      removed: \(folder)/\(name) (an earlier run's report this scenario no longer writes)") }
            }
        }
        if let junit = parsed.value("--junit") {
            do { try ReportWriter.write(JUnitReport.render(entries, teamProgram: teamProgram, replayFlags: replayFlags), to: junit) } catch {
                Console.error("synclab run: cannot write \(junit): \(ScenarioFiles.reason(error))"); return .badInput
            }
        }
        if format == "json" {
            Console.out(JSON.object([("results", .array(results))]).renderedPretty())
        }
        if invalid || reportsFailed { return .badInput }
        return anyFailed ? .failed : .success
    }
}
