/// The counts a run reports (SPEC §7 `metrics`).
public struct RunMetrics: Hashable, Sendable {
    /// User-level writes the run made (every accepted or rejected edit).
    public var writes: Int
    /// `lostUpdate` anomalies the checker found.
    public var lostUpdates: Int
    /// Conflicts as SPEC §6 counts them (one per document conflict the cloud detects, one per `serverRecordChanged` or fetched change meeting a pending one).
    public var conflicts: Int
    /// Document conflicts still open at the end.
    public var unresolvedConflicts: Int
    /// Writes rejected or rolled back for a limit.
    public var quotaViolations: Int
    /// Every device's view equals the cloud's at the end.
    public var converged: Bool
    /// Notifications the engines delivered to the apps.
    public var notifications: Int
    /// Requests, responses and pushes sent.
    public var messages: Int
    /// Requests answered with a transport failure and retried.
    public var retries: Int
}
