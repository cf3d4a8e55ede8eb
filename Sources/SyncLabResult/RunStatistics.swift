/// Counters reported in results and by `synclab bench`.
public struct RunStatistics: Sendable {
    /// Events the run handled.
    public var events = 0
    /// Requests, responses and pushes sent.
    public var messages = 0
    /// Requests answered with a transport failure (each one is retried by its engine).
    public var retries = 0
    /// Messages and pushes delivered to their destination.
    public var deliveries = 0
    /// User operations run.
    public var operations = 0
    /// Crashes of a device whose engines held changes the cloud had not acknowledged (what
    /// `synclab fuzz` reports as covered).
    public var crashesWithChangesPending = 0
    /// Record saves the cloud refused with `serverRecordChanged` (a stale change tag), as delivered.
    public var serverRecordChanged = 0
    /// All zero.
    public init() {}
}
