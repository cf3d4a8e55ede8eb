/// One checked expectation (SPEC §7 `expectations`): an `expect` entry, an `assert`, or an invariant.
public struct ExpectationOutcome: Hashable, Sendable, CustomStringConvertible {
    /// `converged`, `lostUpdates`, `final.kvs.theme`, `anomalies[0]`, `assert`, `invariant atomicityViolation`…
    public var name: String
    public var wanted: ScenarioValue
    public var actual: ScenarioValue
    public var passed: Bool

    /// `NAME: wanted W, got A`.
    public var description: String { "\(name): wanted \(wanted), got \(actual)" }
}
