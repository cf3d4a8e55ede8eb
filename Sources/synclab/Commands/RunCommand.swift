import Foundation
import JSONText
import Scenario
import Simulation
import Reports

/// `synclab run FILE|DIR… [--seed N] [--variant NAME] [--out DIR] [--format text|json] [--junit FILE] [--quiet]`
enum RunCommand {
    static let usage = """
    usage: synclab run FILE|DIR… [--seed N] [--variant NAME] [--out DIR] [--format text|json] [--junit FILE] [--quiet]

    Runs scenarios (every variant unless --variant) and writes their reports.
      --seed N          run with this seed instead of the scenario's
      --variant NAME    run only this variant (`base` is the scenario as written)
      --out DIR         where reports go (default Reports/<scenario-file-stem>/; with several
                        files, DIR/<scenario-file-stem>/)
      --format F        text (default): a summary per run; json: {"results": [RESULT, …]} on stdout
      --junit FILE      also write a JUnit XML report
      --quiet           print only failures
    Exit status: 0 every expectation held, 1 one failed, 2 bad input or usage.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: ["--seed", "--variant", "--out", "--format", "--junit"], flags: ["--quiet", "--help"])
        } catch {
            Console.error("synclab run: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else { Console.error("synclab run: --format takes text or json, got \(format)"); return .badInput }
        var seed: UInt64?
        if let text = parsed.value("--seed") {
            guard let value = UInt64(text) else { Console.error("synclab run: --seed takes a non-negative integer, got \(text)"); return .badInput }
            seed = value
        }
        guard !parsed.positional.isEmpty else { Console.error("synclab run: name at least one scenario file or folder\n\(usage)"); return .badInput }
        let files: [String]
        do { files = try ScenarioFiles.expand(parsed.positional) } catch { Console.error("synclab run: \(error.message)"); return .badInput }

        // Validate everything first: bad input never runs half a set of scenarios.
        var loaded: [ScenarioFile] = []
        var invalid = false
        for file in files {
            switch ScenarioLoader.load(path: file) {
            case .success(let scenario): loaded.append(scenario)
            case .failure(let errors):
                invalid = true
                for error in errors.errors { Console.error(error.description) }
            }
        }
        if invalid { return .badInput }
        if let variant = parsed.value("--variant") {
            for scenario in loaded where !scenario.runs.contains(where: { $0.variant == variant }) {
                let names = scenario.runs.map(\.variant).joined(separator: ", ")
                Console.error("\(scenario.path): no variant named \"\(variant)\" (it has: \(names))")
                invalid = true
            }
            if invalid { return .badInput }
        }

        var entries: [JUnitReport.Entry] = []
        var results: [JSON] = []
        var anyFailed = false
        let annotate = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"
        for scenario in loaded {
            let folder: String
            if let out = parsed.value("--out") {
                folder = loaded.count == 1 ? out : "\(out)/\(ScenarioFiles.stem(scenario.path))"
            } else {
                folder = "Reports/\(ScenarioFiles.stem(scenario.path))"
            }
            var runs = scenario.runs
            if let variant = parsed.value("--variant") { runs = runs.filter { $0.variant == variant } }
            var judgedRuns: [ScenarioRunner.Judged] = []
            for var run in runs {
                if let seed { run.seed = seed }
                let judged = ScenarioRunner.run(run)
                judgedRuns.append(judged)
                entries.append(JUnitReport.Entry(file: scenario.path, judged: judged))
                results.append(ResultDocument.json(judged, file: scenario.path))
                if !judged.passed { anyFailed = true }
                if format == "text" && (!parsed.has("--quiet") || !judged.passed) {
                    Console.out(TextSummary.render(judged, file: scenario.path))
                }
                if annotate && !judged.passed {
                    for expectation in judged.expectations where !expectation.passed {
                        Console.out("::error file=\(scenario.path),title=\(run.scenarioName) [\(run.variant)]::\(expectation.name): wanted \(expectation.wanted.rendered()), got \(expectation.actual.rendered())")
                    }
                }
            }
            do {
                try ReportSet.write(judgedRuns, file: scenario.path, to: folder, splitVariants: scenario.runs.count > 1)
            } catch {
                Console.error("synclab run: cannot write reports to \(folder): \(error)")
                return .badInput
            }
            if format == "text" && !parsed.has("--quiet") {
                Console.out("      reports: \(folder)/")
            }
        }
        if let junit = parsed.value("--junit") {
            do { try ReportWriter.write(JUnitReport.render(entries), to: junit) } catch {
                Console.error("synclab run: cannot write \(junit): \(error)"); return .badInput
            }
        }
        if format == "json" {
            Console.out(JSON.object([("results", .array(results))]).renderedPretty())
        }
        return anyFailed ? .failed : .success
    }
}
