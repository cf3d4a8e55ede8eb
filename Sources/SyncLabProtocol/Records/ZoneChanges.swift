/// One zone's part of a fetch-changes answer (CKFetchRecordZoneChangesOperation).
public struct ZoneChanges: Hashable, Sendable {
    public var zone: String
    /// Records changed since the token, in change order.
    public var changed: [ServerRecord]
    /// Records deleted since the token, with the deleting writes.
    public var deleted: [RecordDeletion]
    /// The token to use next time; nil when `error` is set.
    public var token: ZoneChangeToken?
    /// `changeTokenExpired`, `zoneNotFound` or `userDeletedZone`; nil on success.
    public var error: ZoneFetchError?

    public init(zone: String, changed: [ServerRecord], deleted: [RecordDeletion], token: ZoneChangeToken?, error: ZoneFetchError?) {
        self.zone = zone; self.changed = changed; self.deleted = deleted; self.token = token; self.error = error
    }
}
