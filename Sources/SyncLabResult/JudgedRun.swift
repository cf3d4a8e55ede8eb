/// A run and its verdict: what `synclab run` prints and what the reports are written from.
///
/// The result model sits between the simulation (which produces it) and the reports (which
/// render it), so the reports never import the simulator.
public struct JudgedRun: Sendable {
    /// What the run produced: the history, the checker's report, the trace bytes, counters.
    public var outcome: RunOutcome
    /// Every expectation, assert and invariant, checked.
    public var expectations: [ExpectationResult]
    /// All expectations and invariants held.
    public var passed: Bool

    /// A judged run.
    public init(outcome: RunOutcome, expectations: [ExpectationResult], passed: Bool) {
        self.outcome = outcome; self.expectations = expectations; self.passed = passed
    }
}
