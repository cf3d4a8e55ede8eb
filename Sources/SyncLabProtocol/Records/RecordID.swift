/// A record's identity inside one database: its zone and its client-chosen name (CKRecord.ID).
///
/// The id carries `Hasher`'s hash of its two names, computed when it is made: every device
/// that fetches a record keys it by database and id (`RecordKey`), and hashing the two names
/// again on each of 1,000 devices was a SipHash per fetched record per device (issue 13,
/// session 10). Equality is the names' (canonical equivalence, as `String`'s), and the hash is
/// `String`'s own hashing of them, so equal ids still hash alike.
public struct RecordID: Hashable, Comparable, Sendable {
    public var zone: String { didSet { rehash() } }
    public var name: String { didSet { rehash() } }
    /// `Hasher`'s hash of the two names (this process's seed): never shown, never stored.
    public private(set) var namesHash: Int = 0

    public init(zone: String, name: String) {
        self.zone = zone; self.name = name
        rehash()
    }

    private mutating func rehash() {
        var hasher = Hasher()
        hasher.combine(zone)
        hasher.combine(name)
        namesHash = hasher.finalize()
    }

    /// Unequal hashes settle most comparisons of unequal ids without reading the strings.
    public static func == (lhs: RecordID, rhs: RecordID) -> Bool {
        lhs.namesHash == rhs.namesHash && lhs.name == rhs.name && lhs.zone == rhs.zone
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(namesHash) }

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
