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

    /// `NAME: wanted W, got A`.
    public var description: String { "\(name): wanted \(wanted), got \(actual)" }
}
