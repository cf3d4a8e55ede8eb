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
    /// The kept `trace`'s size and FNV-1a digest, computed as it was made (hashing a gigabyte of
    /// trace afterwards took seconds); nil when unknown. `digestOfTrace` uses it only while it
    /// still describes `trace`.
    public var traceDigest: TraceFileSummary? = nil

    /// 64-bit FNV-1a of `trace`: the one computed as the trace was made when it is of these
    /// bytes' size (nobody replaced the trace since), else computed now.
    public var digestOfTrace: UInt64 {
        if let traceDigest, traceDigest.bytes == Int64(trace.count) { return traceDigest.digest }
        var hasher = FNV1a64()
        hasher.combine(trace)
        return hasher.value
    }

    /// Everything one run produced.
    public init(run: ScenarioRun, history: History, report: CheckReport, trace: [UInt8], settled: Bool, capHit: Bool,
                endTime: SimInstant, statistics: RunStatistics, assertFailures: [String]) {
        self.run = run; self.history = history; self.report = report; self.trace = trace; self.settled = settled
        self.capHit = capHit; self.endTime = endTime; self.statistics = statistics; self.assertFailures = assertFailures
    }
}
