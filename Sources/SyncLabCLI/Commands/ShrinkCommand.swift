import Foundation
import SyncLabExplore
import SyncLabJSON
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner
import SyncLabReports

/// `synclab shrink FILE [--variant V] [--anomaly KIND] [--out DIR]`
enum ShrinkCommand {
    static let usage = """
    usage: synclab shrink FILE [--variant V] [--anomaly KIND] [--out DIR]

    Shrinks a failing scenario (hand-written ones included) to the smallest scenario that still
    shows the same fingerprint: devices, steps, faults, fields and variants removed; values,
    durations and times shortened; latency distributions made constant.
      --variant V       the run to shrink (default: the first failing one; `base` is the file as written)
      --anomaly KIND    keep an anomaly of this kind (lostUpdate, causalityViolation, …) rather
                        than the failure; minimal.json then asserts that it appears
      --out DIR         where minimal.json and its reports go (default shrunk/<file-stem>/)
    Without --anomaly the target is the run's first broken promise (docs/FUZZING.md), else its
    first failed expectation. Prints the size (devices, steps, events) before and after.
    Exit status, as for synclab fuzz: 1 a failure found and shrunk (minimal.json written), 0 nothing
    to shrink (every run passes and keeps every promise, or shows no KIND anomaly), 2 bad input.
    """

    /// - Parameters:
    ///   - apps: the app names the file may use (a team's executable passes its registry's, SPEC §9).
    ///   - factories: how the runs make the team's apps.
    static func main(_ arguments: [String], apps: AppNames = .builtIn, factories: AppFactories = AppFactories()) -> ExitStatus {
        let parsed: Arguments
        do { parsed = try Arguments(arguments, valued: ["--variant", "--anomaly", "--out"], flags: ["--help", FindingWriter.hostRecordsPoliciesFlag]) } catch {
            Console.error("synclab shrink: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            Console.error("synclab shrink: name exactly one scenario file\n\(usage)"); return .badInput
        }
        if let kind = parsed.value("--anomaly"), !FindingRule.kinds.contains(kind) {
            Console.error("synclab shrink: unknown anomaly kind \(kind) (one of \(FindingRule.kinds.joined(separator: ", ")))"); return .badInput
        }
        let scenario: ScenarioFile
        switch ScenarioLoader.load(path: path, apps: apps) {
        case .success(let loaded): scenario = loaded
        case .failure(let errors): ValidationOutput.show(errors, annotate: ValidationOutput.annotate); return .badInput
        }
        guard let data = FileManager.default.contents(atPath: path), let node = try? JSON5Reader.parse(bytes: [UInt8](data)) else {
            Console.error("synclab shrink: cannot read \(path)"); return .badInput
        }
        var runs = scenario.runs
        if let variant = parsed.value("--variant") {
            runs = runs.filter { $0.variant == variant }
            guard !runs.isEmpty else {
                Console.error("\(path): no variant named \"\(variant)\" (it has: \(scenario.runs.map(\.variant).joined(separator: ", ")))"); return .badInput
            }
        }
        // Not in the usage, as on `synclab run`: a comparison aid (docs/LIBRARY.md, "Comparing
        // them with the engine"); every run of the shrink hosts the records policies as the apps.
        let hostRecordsPolicies = parsed.has(FindingWriter.hostRecordsPoliciesFlag)
        // Every run of the shrink makes the apps the file names from the registry it was given:
        // a team's executable shrinks its own apps' failures (SPEC §9, §10).
        var host = FuzzHost(names: apps, factories: factories, apps: [])
        host.hostRecordsPolicies = hostRecordsPolicies
        // The target: the chosen anomaly, else a broken promise, else a failed expectation.
        for run in runs {
            let judged = ScenarioRunner.run(run, options: host.options)
            var target: ShrinkTarget?
            if let kind = parsed.value("--anomaly") {
                target = PromiseJudge.findings(judged, rule: .find(kind)).first.map { .fingerprint($0.fingerprint, .find(kind)) }
            } else if let finding = PromiseJudge.findings(judged, rule: .promises).first {
                target = .fingerprint(finding.fingerprint, .promises)
            } else if let failed = judged.expectations.first(where: { !$0.passed }) {
                target = .failedExpectation(failed.name)
            }
            guard let target else { continue }
            let folder = parsed.value("--out") ?? "shrunk/\(ScenarioFiles.stem(path))"
            // Checked before the shrinking runs, as `synclab run` checks its --out.
            do { try ScenarioFiles.checkOutputs(folders: [folder], junit: nil) } catch {
                Console.error("synclab shrink: \(error.message)"); return .badInput
            }
            let flat = ShrinkInput.prepare(node, variant: run.variant, target: target)
            Console.out("shrinking \(path) [\(run.variant)]: \(target.name)")
            do {
                guard let written = try FindingWriter.shrinkAndWrite(flat, originalText: nil, target: target, origin: "\(ScenarioFiles.stem(path)) [\(run.variant)]",
                                                                       folder: folder, host: host) else {
                    Console.error("synclab shrink: the flattened scenario no longer shows \(target.name)"); return .badInput
                }
                Console.out("  before: \(written.before.summary)")
                Console.out("  after:  \(written.after.summary) (\(written.runs) runs, \(String(format: "%.1f", written.seconds)) s)")
                for line in FindingWriter.minimalLines("\(folder)/minimal.json", reproduces: written.reproduces, hostRecordsPolicies: hostRecordsPolicies) { Console.out(line) }
                // A failed expectation says what went wrong, not why: the shrinker keeps it failing,
                // and may drop the cause on the way (coffee.json's `final.kvs.cups` 2 fails just as
                // well with one device and one increment, its lost update gone). Say so, and how
                // to keep the cause.
                if case .failedExpectation(let expectation) = target {
                    let dropped = FindingWriter.anomalyKinds(judged).filter { !written.anomalyKinds.contains($0) }
                    if let first = dropped.first {
                        Console.out("  note: the minimal run keeps \(expectation) failing but no longer shows \(dropped.joined(separator: ", ")), which the original showed;"
                                    + " to keep it: synclab shrink \(ReplayCommand.shellQuoted(path)) --anomaly \(first)")
                    }
                }
            } catch {
                Console.error("synclab shrink: cannot write \(folder): \(ScenarioFiles.reason(error))"); return .badInput
            }
            // A finding, as `synclab fuzz` exits 1 when it finds one (SPEC §10): the file fails.
            return .failed
        }
        // Not bad input: the file is valid and simply shows nothing to shrink, as a fuzz
        // campaign without a finding exits 0 (SPEC §10). Nothing is written.
        let runNames = runs.map(\.variant).joined(separator: ", ")
        Console.out("synclab shrink: \(path): nothing to shrink: " + (parsed.value("--anomaly").map { "no \($0) anomaly in the run (\(runNames))" }
                                                                     ?? "every run (\(runNames)) passes and keeps every promise"))
        return .success
    }
}
