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

    /// The expectation in one line, as the summary, JUnit and annotations print a failed one:
    /// `NAME: wanted W, got A`, except where `wanted` is a pattern and `actual` a count of the
    /// anomalies it matched, which read backwards that way ("noAnomalies[0]: wanted
    /// {"kind":"divergence"}, got 1" reads as if a divergence had been wanted):
    /// `anomalies[0]: wanted an anomaly matching {…}, found none`, `noAnomalies[0]: wanted no
    /// anomaly matching {…}, found 1`, `invariant K: found 2 that expect.anomalies does not
    /// name`; an assert or the event cap by its own words (`assert: steps[4] assert on A at
    /// 30s: kvs "k" is 1, expected 2`). `result.json` keeps the fields as they are.
    public var sentence: String {
        var count: Int64?
        if case .int(let value) = actual { count = value }
        if name.hasPrefix("anomalies["), let count {
            return "\(name): wanted an anomaly matching \(wanted.rendered()), found \(count == 0 ? "none" : String(count))"
        }
        if name.hasPrefix("noAnomalies["), let count {
            return "\(name): wanted no anomaly matching \(wanted.rendered()), found \(count)"
        }
        // An assert's and the event cap's `actual` is a sentence of its own: as JSON it came
        // out quoted, its quotes escaped (`got "steps[4] assert on A: kvs \"k\" is 1, …"`).
        if name == "assert" || name == "end.maxEvents", case .string(let text) = actual {
            return "\(name): \(text)"
        }
        if name.hasPrefix("invariant "), let count {
            return "\(name): found \(count) that expect.anomalies does not name (an engine or app bug under every policy)"
        }
        return "\(name): wanted \(wanted.rendered()), got \(actual.rendered())"
    }
}
