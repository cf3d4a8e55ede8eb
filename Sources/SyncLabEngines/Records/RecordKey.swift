import SyncLabProtocol

/// A record as the engine addresses it: database, zone and name.
///
/// The key carries its hash, computed once when it is made: a fetched record's key is looked up
/// in several per-device tables (`records`, `serverRecords`, `pending`, the held versions), and
/// hashing the two strings with SipHash for each lookup was some 8% of the records bench
/// (issue 13, fifth pass). Equality is the strings' (canonical equivalence, as `String`'s), and
/// the cached hash is `String`'s own hashing of them, so equal keys still hash alike.
public struct RecordKey: Hashable, Comparable, Sendable {
    public var database: DatabaseScope { didSet { rehash() } }
    public var zone: String { didSet { rehash() } }
    public var name: String { didSet { rehash() } }
    /// `Hasher`'s hash of the three parts (this process's seed): never shown, never stored.
    /// `RecordTable` places keys by it.
    private(set) var cachedHash: Int = 0

    public init(database: DatabaseScope, zone: String, name: String) {
        self.database = database; self.zone = zone; self.name = name
        rehash()
    }

    /// The key of a record id in `database`, its hash made from the id's (`RecordID.namesHash`)
    /// without hashing the names again: every device keys every record it fetches.
    public init(database: DatabaseScope, id: RecordID) {
        self.database = database; self.zone = id.zone; self.name = id.name
        cachedHash = RecordKey.hash(database, namesHash: id.namesHash)
    }

    private mutating func rehash() {
        cachedHash = RecordKey.hash(database, namesHash: RecordID(zone: zone, name: name).namesHash)
    }

    /// The names' hash with the database mixed in (a constant per scope xored in, then a
    /// multiply-xorshift finaliser): equal keys have equal names' hashes, so they hash alike.
    private static func hash(_ database: DatabaseScope, namesHash: Int) -> Int {
        var mixed = UInt64(bitPattern: Int64(namesHash))
        switch database {
        case .private: mixed ^= 0x9e37_79b9_7f4a_7c15
        case .public: mixed ^= 0xc2b2_ae3d_27d4_eb4f
        }
        mixed = (mixed ^ (mixed >> 31)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(bitPattern: UInt(mixed ^ (mixed >> 31)))
    }

    public var id: RecordID { RecordID(zone: zone, name: name) }
    public var zoneKey: ZoneKey { ZoneKey(database: database, zone: zone) }
    /// `ZONE/NAME`: the two names' bytes with a slash between, written once into the new
    /// string (interpolation appended three pieces, ~350 instructions for every record a fetch
    /// shows).
    public var itemName: String {
        let zoneBytes = zone.utf8.count
        return String(unsafeUninitializedCapacity: zoneBytes + 1 + name.utf8.count) { buffer in
            var end = buffer.initialize(from: zone.utf8).1
            buffer[end] = UInt8(ascii: "/")
            end += 1
            end = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(from: name.utf8).1 + end
            return end
        }
    }

    /// Unequal hashes settle most comparisons of unequal keys without reading the strings.
    public static func == (lhs: RecordKey, rhs: RecordKey) -> Bool {
        lhs.cachedHash == rhs.cachedHash && lhs.database == rhs.database && lhs.name == rhs.name && lhs.zone == rhs.zone
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(cachedHash) }

    /// What `Dictionary` and `Set` call: the cached hash mixed with the table's seed by a
    /// multiply-xorshift finaliser (no SipHash rounds per lookup). The seed keeps each table's
    /// bucket order its own, as `Hasher` does.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(bitPattern: Int64(cachedHash)) ^ UInt64(bitPattern: Int64(seed))
        mixed = (mixed ^ (mixed >> 33)) &* 0xff51_afd7_ed55_8ccd
        mixed = (mixed ^ (mixed >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return Int(bitPattern: UInt(mixed ^ (mixed >> 33)))
    }

    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        if lhs.database != rhs.database { return lhs.database.rawValue < rhs.database.rawValue }
        return lhs.id < rhs.id
    }
}
