import SyncLabProtocol

/// What the engine knows of one custom zone (durable).
public struct LocalZone: Hashable, Sendable {
    /// The cloud is known to have the zone.
    public var existsOnServer: Bool = false
    /// The user deleted the zone from Settings: nothing more is uploaded into it until the app
    /// creates it again.
    public var userDeleted: Bool = false
    /// The token of the last zone fetch (nil: fetch from scratch).
    public var token: ZoneChangeToken?
    /// Fetch this zone at the next fetch even if database changes do not list it (token expired).
    public var needsFetch: Bool = false
    public init() {}
}
