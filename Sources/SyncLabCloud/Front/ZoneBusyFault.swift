import SyncLabKernel

/// `cloud.throttle` with a `zone`: until `until`, record requests that touch that zone (in any
/// database) fail with `zoneBusy(retryAfter:)`, as CloudKit answers when one zone gets more
/// writes than it can take; requests about other zones go through.
public struct ZoneBusyFault: Hashable, Sendable {
    public var zone: String
    public var until: SimInstant
    public var retryAfter: SimDuration

    public init(zone: String, until: SimInstant, retryAfter: SimDuration) {
        self.zone = zone; self.until = until; self.retryAfter = retryAfter
    }
}
