/// The answer to a database-changes fetch (CKFetchDatabaseChangesOperation).
public struct DatabaseChanges: Hashable, Sendable {
    /// Custom zones created or changed since the token, sorted.
    public var changedZones: [String]
    /// Zones deleted since the token, sorted by zone.
    public var deletedZones: [ZoneDeletion]
    public var token: DatabaseChangeToken
    public init(changedZones: [String], deletedZones: [ZoneDeletion], token: DatabaseChangeToken) {
        self.changedZones = changedZones; self.deletedZones = deletedZones; self.token = token
    }
}
