import SyncLabKernel

/// Faults the scenario injects at the cloud's front door (SPEC §5: `cloud.outage`, `cloud.throttle`).
/// Times are true time: faults are the scenario's, not any clock's.
public struct CloudFaults: Hashable, Sendable {
    /// Every request before this instant fails with `serviceUnavailable`.
    public var outageUntil: SimInstant?
    /// Every request before this instant fails with `requestRateLimited(retryAfter:)`.
    public var throttleUntil: SimInstant?
    /// The `retryAfter` the cloud gives while throttling.
    public var throttleRetryAfter: SimDuration = .seconds(30)
    /// Zones throttled on their own (`cloud.throttle` with `zone`), latest last.
    public var busyZones: [ZoneBusyFault] = []

    public init() {}

    /// The failure a request arriving at `now` meets, if any.
    public func failure(at now: SimInstant) -> (name: String, retryAfter: SimDuration)? {
        if let until = outageUntil, now < until { return ("serviceUnavailable", until - now) }
        if let until = throttleUntil, now < until { return ("requestRateLimited", max(throttleRetryAfter, .zero)) }
        return nil
    }

    /// The `retryAfter` of a zone among `zones` that is busy at `now` (the latest fault set for
    /// it wins), or nil.
    public func busy(_ zones: [String], at now: SimInstant) -> SimDuration? {
        for fault in busyZones.reversed() where now < fault.until && zones.contains(fault.zone) { return max(fault.retryAfter, .zero) }
        return nil
    }
}
