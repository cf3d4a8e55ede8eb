import SyncLabKernel

/// A record as the cloud stores it and sends it: type, fields with their write ids, and the
/// system fields (change tag, dates by the cloud's clock, creator and last modifier).
///
/// A value with its parts in one shared, copy-on-write box (issue 13, session 11): a fetched
/// version reaches every device of the account, and each keeps it as its base. Inline, the
/// record was 136 bytes in every device's record table (three of its four cache lines an entry,
/// each read cold when a newer version replaced it) and each copy retained its strings and
/// field dictionary one by one; boxed, a device's copy is one reference to the box the cloud's
/// answer holds (one retain, and the box stays in cache while a thousand devices take it). A
/// change to a copy that shares its box copies the box first, so it behaves exactly as the
/// inline value did.
public struct ServerRecord: Hashable, Sendable {
    /// The parts, as the inline record had them.
    struct Parts: Hashable, Sendable {
        var id: RecordID
        var type: String
        var fields: [String: StoredField]
        var changeTag: UInt64
        var existenceWrite: WriteID
        var createdAt: LocalInstant
        var modifiedAt: LocalInstant
        var creatorDevice: DeviceID
        var creatorAccount: AccountID
        var lastModifierDevice: DeviceID
        var zoneIncarnation: UInt64
        var assetBytes: Int64
    }

    /// The box. Changed only while uniquely referenced (`parts`' `_modify`), so a box another
    /// copy can see never changes: safe to share across threads.
    final class Box: @unchecked Sendable {
        /// Unchecked: a class's stored `var` is otherwise checked for overlapping access at run
        /// time at every read (`swift_beginAccess`, 1.5% of the records bench); no access here
        /// overlaps another, since a shared box is never written.
        @exclusivity(unchecked) var parts: Parts
        /// This version as a hosting layer shows it to apps (`hostedForm`), made once and shared
        /// by every device the version is shown to; nil until made, and dropped when the parts
        /// change in place.
        @exclusivity(unchecked) var hostedForm: AnyObject?
        init(_ parts: Parts) { self.parts = parts }
    }

    private var box: Box

    /// The parts to change, the box copied first if another copy shares it.
    private var parts: Parts {
        get { box.parts }
        _modify {
            if !isKnownUniquelyReferenced(&box) {
                box = Box(box.parts)
            } else if box.hostedForm != nil {
                // Made from the parts about to change (no other holder can be reading it).
                box.hostedForm = nil
            }
            yield &box.parts
        }
    }

    public var id: RecordID {
        get { box.parts.id }
        _modify { yield &parts.id }
    }
    public var type: String {
        get { box.parts.type }
        _modify { yield &parts.type }
    }
    /// Field name → field. Iterate through `fieldNames` (sorted), never the dictionary.
    public var fields: [String: StoredField] {
        get { box.parts.fields }
        _modify {
            yield &parts.fields
            parts.assetBytes = ServerRecord.assetBytes(of: box.parts.fields)
        }
    }
    /// A new opaque value on every server write (CKRecord.recordChangeTag).
    public var changeTag: UInt64 {
        get { box.parts.changeTag }
        _modify { yield &parts.changeTag }
    }
    /// The write that created this incarnation of the record: the write id of its existence item.
    public var existenceWrite: WriteID {
        get { box.parts.existenceWrite }
        _modify { yield &parts.existenceWrite }
    }
    public var createdAt: LocalInstant {
        get { box.parts.createdAt }
        _modify { yield &parts.createdAt }
    }
    public var modifiedAt: LocalInstant {
        get { box.parts.modifiedAt }
        _modify { yield &parts.modifiedAt }
    }
    public var creatorDevice: DeviceID {
        get { box.parts.creatorDevice }
        _modify { yield &parts.creatorDevice }
    }
    public var creatorAccount: AccountID {
        get { box.parts.creatorAccount }
        _modify { yield &parts.creatorAccount }
    }
    public var lastModifierDevice: DeviceID {
        get { box.parts.lastModifierDevice }
        _modify { yield &parts.lastModifierDevice }
    }
    /// The incarnation of the zone the record is in (`ZoneChangeToken.incarnation`): a zone
    /// deleted and created again holds other records under the same names, and a deletion
    /// notice names the incarnation it deleted (`ZoneDeletion.incarnation`).
    public var zoneIncarnation: UInt64 {
        get { box.parts.zoneIncarnation }
        _modify { yield &parts.zoneIncarnation }
    }

    public init(id: RecordID, type: String, fields: [String: StoredField], changeTag: UInt64, existenceWrite: WriteID,
                createdAt: LocalInstant, modifiedAt: LocalInstant, creatorDevice: DeviceID, creatorAccount: AccountID,
                lastModifierDevice: DeviceID, zoneIncarnation: UInt64 = 0) {
        box = Box(Parts(id: id, type: type, fields: fields, changeTag: changeTag, existenceWrite: existenceWrite,
                        createdAt: createdAt, modifiedAt: modifiedAt, creatorDevice: creatorDevice, creatorAccount: creatorAccount,
                        lastModifierDevice: lastModifierDevice, zoneIncarnation: zoneIncarnation,
                        assetBytes: ServerRecord.assetBytes(of: fields)))
    }

    /// Equal parts, whether or not in one box (the same box: equal without reading them).
    public static func == (lhs: ServerRecord, rhs: ServerRecord) -> Bool {
        lhs.box === rhs.box || lhs.box.parts == rhs.box.parts
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(box.parts) }

    /// Whether two copies share one box (for tests: a copy is a reference, not the parts).
    public func sharesStorage(with other: ServerRecord) -> Bool { box === other.box }

    /// This version as a hosting layer shows it to apps (nil: not made yet), kept with the
    /// version so every device it is shown to shares one (1,000 devices each converted every
    /// fetched version and freed it when the next came). Not part of the value (`==`, hashing
    /// ignore it) and dropped when the record changes. Copies of a record share it: a caller
    /// reads and sets it under a lock of its own (copies may live on other threads).
    package var hostedForm: AnyObject? {
        get { box.hostedForm }
        nonmutating set { box.hostedForm = newValue }
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
    public var assetBytes: Int64 { box.parts.assetBytes }

    private static func assetBytes(of fields: [String: StoredField]) -> Int64 {
        // Over the values' indices: `reduce` copied each field (its value retained and released).
        var total: Int64 = 0
        for index in fields.values.indices { total += fields.values[index].assetBytes }
        return total
    }
}
