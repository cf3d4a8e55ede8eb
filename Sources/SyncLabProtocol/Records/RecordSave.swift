/// One record save in a modify request: the fields to set on the server record.
///
/// `baseTag` is the change tag of the server record the client last saw (nil: the client believes
/// the record is new). Under `ifServerRecordUnchanged` a stale tag fails with `serverRecordChanged`;
/// under every policy a tag for a record that no longer exists fails with `unknownItem`.
public struct RecordSave: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    /// The fields to set (a nil value removes the field), each with its original write id.
    public var fields: [String: StoredField]
    public var baseTag: UInt64?
    /// The existence item's write id if this save creates the record.
    public var existenceWrite: WriteID

    public init(id: RecordID, type: String, fields: [String: StoredField], baseTag: UInt64?, existenceWrite: WriteID) {
        self.id = id; self.type = type; self.fields = fields; self.baseTag = baseTag; self.existenceWrite = existenceWrite
    }

    /// Bytes this save adds to a request (field names plus values, assets excluded).
    public var sizeBytes: Int { fields.reduce(0) { $0 + $1.value.sizeBytes(name: $1.key) } }

    /// Asset bytes uploaded with this save.
    public var assetBytes: Int64 { fields.values.reduce(0) { $0 + $1.assetBytes } }

    /// Field names in UTF-8 byte order.
    public var fieldNames: [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
}
