/// What a shrink must keep.
public enum ShrinkTarget: Sendable, Equatable {
    /// A finding with this fingerprint under this rule.
    case fingerprint(String, FindingRule)
    /// This expectation failing (a hand-written scenario whose failure is no anomaly).
    case failedExpectation(String)

    public var name: String {
        switch self {
        case .fingerprint(let fingerprint, _): return fingerprint
        case .failedExpectation(let name): return "expectation-" + name
        }
    }
}
