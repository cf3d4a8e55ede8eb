import SyncLabKernel
import SyncLabJSON
import SyncLabChecker
import SyncLabHistory
import SyncLabResult

/// The short human summary `synclab run` prints per run (scenario, variant, seed, verdict,
/// metrics, each anomaly in one sentence, failed expectations, and the command that replays it).
public enum TextSummary {
    /// - Parameter teamProgram: what starts the executable that runs the team's apps, for the
    ///   replay line of a run that uses them (`ReplayCommand.program(for:teamProgram:)`).
    /// - Parameter replayFlags: the options the run was made with that its replay needs too.
    public static func render(_ judged: JudgedRun, file: String, teamProgram: String = ReplayCommand.builtInProgram, replayFlags: [String] = []) -> String {
        let outcome = judged.outcome
        let report = outcome.report
        let run = outcome.run
        var lines: [String] = []
        let verdict = judged.passed ? "PASS" : "FAIL"
        lines.append("\(verdict)  \(run.scenarioName) [\(run.variant)]  seed=\(run.seed)  \(outcome.statistics.events) events, simulated \(SimDuration(microseconds: outcome.endTime.microseconds))\(outcome.settled ? "" : " (did not settle)")")
        lines.append("      writes \(report.writes), lost updates \(report.lostUpdates), conflicts \(report.conflicts), unresolved \(report.unresolvedConflicts), quota violations \(report.quotaViolations), converged \(report.converged ? "yes" : "no"), messages \(outcome.statistics.messages), retries \(outcome.statistics.retries)")
        let shown = report.anomalies.prefix(12)
        for anomaly in shown {
            lines.append("      \(anomaly.kind.rawValue) @\(SimDuration(microseconds: anomaly.at.microseconds)): \(anomaly.explanation)")
        }
        if report.anomalies.count > shown.count { lines.append("      … and \(report.anomalies.count - shown.count) more anomalies (see result.json)") }
        // A run cut off by the event cap is not judged: "no anomalies" would claim a look.
        if outcome.capHit { lines.append("      not judged: the event cap (end.maxEvents) cut the run off, so the checker looked for no anomalies") }
        else if report.anomalies.isEmpty { lines.append("      no anomalies") }
        for expectation in judged.expectations where !expectation.passed {
            lines.append("      expectation failed: \(expectation.sentence)")
        }
        if !judged.passed {
            let variant = run.variant == "base" ? nil : run.variant
            lines.append("      replay: " + ReplayCommand.render(file: file, seed: run.seed, variant: variant,
                                                                   program: ReplayCommand.program(for: run, teamProgram: teamProgram), flags: replayFlags))
        }
        // One line each whatever the user strings in it hold (a name with `\n::error`).
        return lines.map { TerminalText.escape($0) }.joined(separator: "\n")
    }
}
