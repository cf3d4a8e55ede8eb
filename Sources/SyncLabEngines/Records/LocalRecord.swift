import SyncLabProtocol

/// The device's copy of a record: what the app sees, each field with the write that produced it.
public struct LocalRecord: Hashable, Sendable {
    public var type: String
    /// Field name → field; a nil value is a removal not yet acknowledged (kept for its write id).
    public var fields: [String: StoredField]
    /// The write id of the record's existence item on this device.
    public var existenceWrite: WriteID

    public init(type: String, fields: [String: StoredField], existenceWrite: WriteID) {
        self.type = type; self.fields = fields; self.existenceWrite = existenceWrite
    }

    /// Field names in UTF-8 byte order.
    public var fieldNames: [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
}
