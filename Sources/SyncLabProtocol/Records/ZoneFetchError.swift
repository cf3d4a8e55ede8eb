/// Why a zone's changes could not be fetched.
public enum ZoneFetchError: String, Hashable, Sendable {
    /// The token is from before `cloud.expireTokens`: fetch again from scratch.
    case changeTokenExpired
    /// The zone was deleted (by an app) or never existed.
    case zoneNotFound
    /// The user deleted the zone from Settings.
    case userDeletedZone
}
