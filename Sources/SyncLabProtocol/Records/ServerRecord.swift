import SyncLabKernel

/// A record as the cloud stores it and sends it: type, fields with their write ids, and the
/// system fields (change tag, dates by the cloud's clock, creator and last modifier).
public struct ServerRecord: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    /// Field name → field. Iterate through `fieldNames` (sorted), never the dictionary.
    public var fields: [String: StoredField] { didSet { assetBytes = ServerRecord.assetBytes(of: fields) } }
    /// A new opaque value on every server write (CKRecord.recordChangeTag).
    public var changeTag: UInt64
    /// The write that created this incarnation of the record: the write id of its existence item.
    public var existenceWrite: WriteID
    public var createdAt: LocalInstant
    public var modifiedAt: LocalInstant
    public var creatorDevice: DeviceID
    public var creatorAccount: AccountID
    public var lastModifierDevice: DeviceID
    /// The incarnation of the zone the record is in (`ZoneChangeToken.incarnation`): a zone
    /// deleted and created again holds other records under the same names, and a deletion
    /// notice names the incarnation it deleted (`ZoneDeletion.incarnation`).
    public var zoneIncarnation: UInt64

    public init(id: RecordID, type: String, fields: [String: StoredField], changeTag: UInt64, existenceWrite: WriteID,
                createdAt: LocalInstant, modifiedAt: LocalInstant, creatorDevice: DeviceID, creatorAccount: AccountID,
                lastModifierDevice: DeviceID, zoneIncarnation: UInt64 = 0) {
        self.id = id; self.type = type; self.fields = fields; self.assetBytes = ServerRecord.assetBytes(of: fields)
        self.changeTag = changeTag; self.existenceWrite = existenceWrite
        self.createdAt = createdAt; self.modifiedAt = modifiedAt; self.creatorDevice = creatorDevice
        self.creatorAccount = creatorAccount; self.lastModifierDevice = lastModifierDevice; self.zoneIncarnation = zoneIncarnation
    }

    /// Field names in UTF-8 byte order.
    public var fieldNames: [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// Size counted against `limits.records.recordBytes`: field names plus values, assets excluded (SPEC §4.3).
    public var sizeBytes: Int { fields.reduce(0) { $0 + $1.value.sizeBytes(name: $1.key) } }

    /// Bytes of the assets the record holds (stored apart, counted against the quota). Kept
    /// with the fields, set whenever they change: the simulator times every answer by its
    /// records' asset bytes, and a computed property read through the answer's buffer copied
    /// each record (every string and the field dictionary retained, then released) to call it
    /// (issue 13, session 10).
    public private(set) var assetBytes: Int64

    private static func assetBytes(of fields: [String: StoredField]) -> Int64 {
        // Over the values' indices: `reduce` copied each field (its value retained and released).
        var total: Int64 = 0
        for index in fields.values.indices { total += fields.values[index].assetBytes }
        return total
    }
}
