/// A zone delete (in a zone modify request) or a deleted zone (in database changes).
public struct ZoneDeletion: Hashable, Sendable {
    public var zone: String
    /// Deleted by the user from Settings: the zone's data is gone for every device of the
    /// account, and saving into it fails with `userDeletedZone` until an app creates it again.
    public var byUser: Bool
    /// The `zone.delete` write: the write id of the absence of every record it removed.
    public var write: WriteID
    /// In database changes, the incarnation of the zone that went (`ServerRecord.zoneIncarnation`):
    /// records of a zone of that name created since are not deleted by it. Nil in a request.
    public var incarnation: UInt64?
    public init(zone: String, byUser: Bool, write: WriteID, incarnation: UInt64? = nil) {
        self.zone = zone; self.byUser = byUser; self.write = write; self.incarnation = incarnation
    }
}
