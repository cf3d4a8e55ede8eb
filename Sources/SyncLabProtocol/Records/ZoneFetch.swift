/// One zone to fetch changes for, with the token from the last fetch (nil: from scratch).
public struct ZoneFetch: Hashable, Sendable {
    public var zone: String
    public var token: ZoneChangeToken?
    public init(zone: String, token: ZoneChangeToken?) { self.zone = zone; self.token = token }
}
