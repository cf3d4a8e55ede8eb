import Foundation
internal import SyncLabJSON
internal import SyncLabSimulation
internal import SyncLabRunner
internal import SyncLabReports

/// A judged run (SPEC §7 RESULT): whether it passed, what the checker found, the metrics, the
/// final state, every expectation, the trace; `writeReports(to:)` writes the reports of SPEC §8.
public struct RunResult: Sendable {
    let judged: ScenarioRunner.Judged
    let scenarioText: String?
    /// What starts the executable that runs the team's apps, for replay lines of runs that use them.
    let teamProgram: String
    /// The scenario's file as given (`(builder)` for one built in Swift).
    public let file: String

    /// The scenario's name.
    public var scenario: String { judged.outcome.run.scenarioName }
    /// `base` or the variant's name.
    public var variant: String { judged.outcome.run.variant }
    /// The seed the run used: with the file, it replays the run exactly.
    public var seed: UInt64 { judged.outcome.run.seed }
    /// Every expectation, assert and invariant held.
    public var passed: Bool { judged.passed }
    /// What the checker found, in the order `result.json` lists it.
    public let anomalies: [Anomaly]
    /// The run's counts (`result.json`'s `metrics`).
    public let metrics: RunMetrics
    /// Every expectation checked, failed ones included.
    public let expectations: [ExpectationOutcome]
    /// The cloud's final state: account → `{"kvs", "documents", "records"}` as `result.json`'s `final`.
    public let final: ScenarioObject
    /// The run reached quiescence after the heal before `settle` passed.
    public var settled: Bool { judged.outcome.settled }
    /// `trace.jsonl`, one event a line.
    public var trace: String { String(decoding: judged.outcome.trace, as: UTF8.self) }
    /// `result.json`'s text.
    public var resultJSON: String { ResultDocument.json(judged, file: file).renderedPretty() }

    init(_ judged: ScenarioRunner.Judged, scenario: Scenario) {
        self.judged = judged
        self.scenarioText = scenario.text
        self.file = scenario.path
        teamProgram = scenario.registry.program ?? AppRegistry.unnamedProgram
        anomalies = judged.outcome.report.anomalies.map(Anomaly.init)
        let report = judged.outcome.report
        metrics = RunMetrics(writes: report.writes, lostUpdates: report.lostUpdates, conflicts: report.conflicts,
                             unresolvedConflicts: report.unresolvedConflicts, quotaViolations: report.quotaViolations,
                             converged: report.converged, notifications: report.notifications,
                             messages: judged.outcome.statistics.messages, retries: judged.outcome.statistics.retries)
        expectations = judged.expectations.map {
            ExpectationOutcome(name: $0.name, wanted: ScenarioValue($0.wanted), actual: ScenarioValue($0.actual), passed: $0.passed, sentence: $0.sentence)
        }
        if case .object(let object) = ScenarioValue(ResultDocument.finalJSON(judged.outcome.history)) { final = object } else { final = [:] }
    }

    /// The expectations that failed.
    public var failedExpectations: [ExpectationOutcome] { expectations.filter { !$0.passed } }

    /// The command that replays this run from `file` (for a scenario built in Swift or given as
    /// text, from the `scenario.json` that `writeReports(to:)` saves in `folder`): with
    /// `swift run synclab` when the run uses built-in apps only, else with the registry's
    /// `program` (`AppRegistry.unnamedProgram` when it has none).
    public func replayCommand(reportsFolder folder: String? = nil) -> String {
        let path = scenarioText != nil ? folder.map { $0 + "/scenario.json" } ?? file : file
        return ReplayCommand.render(file: path, seed: seed, variant: variant,
                                    program: ReplayCommand.program(for: judged.outcome.run, teamProgram: teamProgram))
    }

    /// The text summary `synclab run` prints for this run.
    public var summary: String { TextSummary.render(judged, file: file, teamProgram: teamProgram) }

    /// Writes `trace.jsonl`, `result.json`, `timeline.html` and `report.md` into `folder`
    /// (created if needed), and `scenario.json` when the scenario was built in Swift or given
    /// as text, so the replay line names a file that exists.
    /// - Returns: `folder`.
    /// - Throws: `ReportWriteError` naming `folder` and the reason in words ("Permission denied",
    ///   "PATH is a file, not a folder"), not Foundation's raw error.
    @discardableResult
    public func writeReports(to folder: String) throws(ReportWriteError) -> String {
        do {
            _ = try ReportWriter.write(judged, file: file, to: folder)
            if let scenarioText { try ReportWriter.write(scenarioText + "\n", to: folder + "/scenario.json") }
        } catch {
            throw ReportWriteError(folder: folder, reason: FileErrorReason.text(error, folder: folder))
        }
        return folder
    }
}
