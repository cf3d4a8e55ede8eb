/// The counts a run reports (SPEC §7 `metrics`).
public struct RunMetrics: Hashable, Sendable {
    public var writes: Int
    public var lostUpdates: Int
    public var conflicts: Int
    public var unresolvedConflicts: Int
    public var quotaViolations: Int
    /// Every device's view equals the cloud's at the end.
    public var converged: Bool
    public var notifications: Int
    /// Requests, responses and pushes sent.
    public var messages: Int
    /// Requests answered with a transport failure and retried.
    public var retries: Int
}
