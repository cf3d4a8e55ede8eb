/// The checker's verdict on one run.
public struct CheckReport: Sendable {
    /// Sorted by `Anomaly.precedes`.
    public var anomalies: [Anomaly]
    /// Accepted user writes.
    public var writes: Int
    public var lostUpdates: Int
    public var conflicts: Int
    public var unresolvedConflicts: Int
    public var quotaViolations: Int
    public var converged: Bool
    /// Notifications delivered to apps.
    public var notifications: Int
    /// Notification counts per (device name, reason), sorted.
    public var notificationCounts: [NotificationCount]

    public init(anomalies: [Anomaly], writes: Int, lostUpdates: Int, conflicts: Int, unresolvedConflicts: Int,
                quotaViolations: Int, converged: Bool, notifications: Int, notificationCounts: [NotificationCount]) {
        self.anomalies = anomalies; self.writes = writes; self.lostUpdates = lostUpdates; self.conflicts = conflicts
        self.unresolvedConflicts = unresolvedConflicts; self.quotaViolations = quotaViolations; self.converged = converged
        self.notifications = notifications; self.notificationCounts = notificationCounts
    }

    /// A report with nothing in it (for runs that skip the checker, e.g. benchmarks).
    public static let empty = CheckReport(anomalies: [], writes: 0, lostUpdates: 0, conflicts: 0, unresolvedConflicts: 0,
                                          quotaViolations: 0, converged: true, notifications: 0, notificationCounts: [])

    /// How many anomalies of `kind` the report has.
    public func count(of kind: AnomalyKind) -> Int { anomalies.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
}

/// How many notifications with one reason one device's app got.
public struct NotificationCount: Sendable, Hashable {
    public var device: String
    public var reason: String
    public var count: Int
    public init(device: String, reason: String, count: Int) { self.device = device; self.reason = reason; self.count = count }
}
