import SyncLabKernel

/// The cloud's `retryAfter`, kept in an engine's durable storage so that a crash and restart do
/// not forget it (SPEC §4: retries are "never earlier than a `retryAfter` the cloud gave").
///
/// The cloud gives a span of true time, but an engine reads only its device's local clock, and
/// that clock can jump. So the deadline is kept as the local reading it ends at *and* the span
/// itself: the wait left is the time until that reading, but never more than the span. A clock set
/// back therefore cannot stall the engine for longer than the cloud asked, and a clock set forward
/// can only shorten the wait (the cloud then answers with another `retryAfter`).
public struct RetryAfterDeadline: Hashable, Sendable {
    /// The local clock reading the wait ends at; nil when no `retryAfter` is outstanding.
    public private(set) var endsAt: LocalInstant?
    /// The `retryAfter` the cloud gave: the longest the wait can be from any moment.
    public private(set) var span: SimDuration = .zero

    public init() {}

    /// Remembers the cloud's `retryAfter`, given at local time `now` (nil: the failure carried
    /// none, and an earlier deadline still stands).
    public mutating func note(_ retryAfter: SimDuration?, now: LocalInstant) {
        guard let retryAfter, retryAfter > .zero else { return }
        endsAt = now + retryAfter
        span = retryAfter
    }

    /// The wait is over: a request went out after it, or the cloud answered one.
    public mutating func clear() {
        endsAt = nil
        span = .zero
    }

    /// How long the engine must still wait at local time `now`, or nil when it need not.
    public func remaining(now: LocalInstant) -> SimDuration? {
        guard let endsAt, now < endsAt else { return nil }
        let left = endsAt - now
        return left < span ? left : span
    }
}
