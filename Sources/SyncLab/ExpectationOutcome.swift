/// One checked expectation (SPEC §7 `expectations`): an `expect` entry, an `assert`, or an invariant.
public struct ExpectationOutcome: Hashable, Sendable, CustomStringConvertible {
    /// `converged`, `lostUpdates`, `final.kvs.theme`, `anomalies[0]`, `assert`, `invariant atomicityViolation`…
    public var name: String
    /// What the expectation asked for.
    public var wanted: ScenarioValue
    /// What the run gave.
    public var actual: ScenarioValue
    /// Whether the run gave what was asked.
    public var passed: Bool
    /// The line the command line prints for it (`ExpectationResult.sentence`).
    let sentence: String

    /// As `synclab run` says it: `NAME: wanted W, got A`, or for a pattern of `expect.anomalies`
    /// / `noAnomalies` and an invariant what was wanted of it and how many anomalies matched
    /// (`noAnomalies[0]: wanted no anomaly matching {"kind":"divergence"}, found 1`), and an
    /// assert in its own words. The Swift Testing issues use it.
    public var description: String { sentence }
}
