import SyncLabKernel
import SyncLabScenario
import SyncLabHistory

/// Everything one run produced: the history and the checker's report, the trace bytes, counters.
public struct RunOutcome: Sendable {
    public var run: ScenarioRun
    public var history: History
    /// The checker's report: empty as the simulator returns the outcome, filled by the runner
    /// (`ScenarioRunner.checked`), which judges above both.
    public var report: CheckReport
    /// `trace.jsonl`, byte for byte.
    public var trace: [UInt8]
    /// True if the run reached quiescence before `settle` passed.
    public var settled: Bool
    /// True if the event cap stopped a runaway run.
    public var capHit: Bool
    /// True time when the run stopped.
    public var endTime: SimInstant
    public var statistics: RunStatistics
    /// Messages of failed `assert` steps, in order.
    public var assertFailures: [String]
    /// With `SimulationOptions.traceFile`: what was streamed there.
    public var traceFile: TraceFileSummary? = nil

    /// Everything one run produced.
    public init(run: ScenarioRun, history: History, report: CheckReport, trace: [UInt8], settled: Bool, capHit: Bool,
                endTime: SimInstant, statistics: RunStatistics, assertFailures: [String]) {
        self.run = run; self.history = history; self.report = report; self.trace = trace; self.settled = settled
        self.capHit = capHit; self.endTime = endTime; self.statistics = statistics; self.assertFailures = assertFailures
    }
}
