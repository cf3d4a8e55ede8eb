import SimKernel

/// Faults the scenario injects at the cloud's front door (SPEC §5: `cloud.outage`, `cloud.throttle`).
/// Times are true time: faults are the scenario's, not any clock's.
public struct CloudFaults: Hashable, Sendable {
    /// Every request before this instant fails with `serviceUnavailable`.
    public var outageUntil: SimInstant?
    /// Every request before this instant fails with `requestRateLimited(retryAfter:)`.
    public var throttleUntil: SimInstant?
    /// The `retryAfter` the cloud gives while throttling.
    public var throttleRetryAfter: SimDuration = .seconds(30)

    public init() {}

    /// The failure a request arriving at `now` meets, if any.
    public func failure(at now: SimInstant) -> (name: String, retryAfter: SimDuration)? {
        if let until = outageUntil, now < until { return ("serviceUnavailable", until - now) }
        if let until = throttleUntil, now < until { return ("requestRateLimited", max(throttleRetryAfter, .zero)) }
        return nil
    }
}
