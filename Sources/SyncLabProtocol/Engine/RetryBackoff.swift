import SyncLabKernel

/// Exponential retry backoff shared by the engines (SPEC §4): 1 s, doubling, at most 5 min, never
/// earlier than a `retryAfter` the cloud gave; `reset()` after reconnecting or a success.
public struct RetryBackoff: Hashable, Sendable {
    public static let initial = SimDuration.seconds(1)
    public static let maximum = SimDuration.minutes(5)

    /// Failures since the last reset.
    public private(set) var attempts: Int = 0

    public init() {}

    /// The delay before the next try, and counts the failure.
    /// - Parameter retryAfter: the cloud's earliest retry time, if it gave one.
    public mutating func nextDelay(retryAfter: SimDuration? = nil) -> SimDuration {
        let shift = min(attempts, 20)
        attempts += 1
        var delay = SimDuration(microseconds: min(RetryBackoff.initial.microseconds << Int64(shift), RetryBackoff.maximum.microseconds))
        if let retryAfter, retryAfter > delay { delay = retryAfter }
        return delay
    }

    public mutating func reset() { attempts = 0 }
}
