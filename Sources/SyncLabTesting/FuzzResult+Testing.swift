import Testing
import SyncLab

/// Swift Testing helpers for `FuzzCampaign` (SPEC §9, §10).
extension FuzzResult {
    /// Records an issue for each finding: its fingerprint, seeds, the checker's explanation, and
    /// the minimal scenario file (with its reports) that reproduces it.
    public func expectNoFindings(sourceLocation: SourceLocation = #_sourceLocation) {
        for finding in findings {
            Issue.record(Comment(rawValue: finding.description), sourceLocation: sourceLocation)
        }
    }

    /// Records an issue unless some finding's fingerprint starts with `prefix` (`lostUpdate`,
    /// `lostUpdate.documents`…): for tests that show a search *does* find a bug.
    /// - Returns: the matching findings.
    @discardableResult
    public func expectFinding(_ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) -> [FuzzFinding] {
        let found = findings.filter { $0.fingerprint.hasPrefix(prefix) }
        if found.isEmpty {
            Issue.record(Comment(rawValue: "expected a finding \(prefix)…, found \(findings.map(\.fingerprint)) in \(seedsRun) seeds"), sourceLocation: sourceLocation)
        }
        return found
    }
}
