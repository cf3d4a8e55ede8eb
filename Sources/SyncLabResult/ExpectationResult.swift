import SyncLabJSON

/// One checked expectation, as RESULT lists it: `{"name", "wanted", "actual", "passed"}`.
public struct ExpectationResult: Sendable {
    /// `converged`, `lostUpdates`, `final.kvs.theme`, `anomalies[0]`, `steps[4] assert`, …
    public var name: String
    public var wanted: JSON
    public var actual: JSON
    public var passed: Bool
    public init(name: String, wanted: JSON, actual: JSON, passed: Bool) {
        self.name = name; self.wanted = wanted; self.actual = actual; self.passed = passed
    }
}
