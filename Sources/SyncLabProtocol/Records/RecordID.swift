/// A record's identity inside one database: its zone and its client-chosen name (CKRecord.ID).
public struct RecordID: Hashable, Comparable, Sendable {
    public var zone: String
    public var name: String
    public init(zone: String, name: String) { self.zone = zone; self.name = name }

    /// Orders by zone, then name, by UTF-8 bytes (the same in every process).
    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        if lhs.zone != rhs.zone { return lhs.zone.utf8.lexicographicallyPrecedes(rhs.zone.utf8) }
        return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }

    /// `ZONE/NAME`, the record's item name in results.
    public var itemName: String { "\(zone)/\(name)" }

    /// CloudKit's default zone: no change tracking, no atomic batches.
    public static let defaultZone = "_defaultZone"
}
