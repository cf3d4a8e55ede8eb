import SyncLabProtocol

/// One CloudKit database in the cloud: a user's private database, or the public one.
struct CloudRecordDatabase: Hashable, Sendable {
    /// A zone that was deleted, and the sequence at which it went.
    struct DeletedZone: Hashable, Sendable {
        var deletion: ZoneDeletion
        var sequence: UInt64
        /// Per record name, the saves applied to its records before the zone went: one re-sent
        /// after its answer was lost was applied and then deleted with the zone, and must not
        /// bring the record back (into this zone created again, either).
        var appliedSaves: [String: [RecordSave]] = [:]
        /// Per record name, the delete writes applied before the zone went: one re-sent after its
        /// answer was lost must not delete the record a zone of this name created again holds.
        var appliedDeletes: [String: [WriteID]] = [:]
    }

    /// Grows with every change in the database; change tokens are positions in it.
    var sequence: UInt64 = 0
    /// Live zones by name, the default zone included.
    var zones: [String: CloudRecordZone]
    var deletedZones: [String: DeletedZone] = [:]
    /// Devices with a database subscription, sorted.
    var subscribers: [DeviceID] = []
    var nextIncarnation: UInt64 = 1

    init() {
        zones = [RecordID.defaultZone: CloudRecordZone(incarnation: 0, sequence: 0)]
    }

    /// Zone names in UTF-8 byte order.
    var sortedZoneNames: [String] { zones.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    mutating func nextSequence() -> UInt64 { sequence += 1; return sequence }
}
