import SyncLabProtocol

/// A record as the engine addresses it: database, zone and name.
public struct RecordKey: Hashable, Comparable, Sendable {
    public var database: DatabaseScope
    public var zone: String
    public var name: String
    public init(database: DatabaseScope, zone: String, name: String) { self.database = database; self.zone = zone; self.name = name }

    public var id: RecordID { RecordID(zone: zone, name: name) }
    public var zoneKey: ZoneKey { ZoneKey(database: database, zone: zone) }
    /// `ZONE/NAME`.
    public var itemName: String { "\(zone)/\(name)" }

    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        if lhs.database != rhs.database { return lhs.database.rawValue < rhs.database.rawValue }
        return lhs.id < rhs.id
    }
}
