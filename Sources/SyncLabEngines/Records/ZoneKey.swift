import SyncLabProtocol

/// A zone of one database, as the engine addresses it.
public struct ZoneKey: Hashable, Comparable, Sendable {
    public var database: DatabaseScope
    public var zone: String
    public init(database: DatabaseScope, zone: String) { self.database = database; self.zone = zone }

    public static func < (lhs: ZoneKey, rhs: ZoneKey) -> Bool {
        if lhs.database != rhs.database { return lhs.database.rawValue < rhs.database.rawValue }
        return lhs.zone.utf8.lexicographicallyPrecedes(rhs.zone.utf8)
    }
}
