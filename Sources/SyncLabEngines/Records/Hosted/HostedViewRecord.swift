import SyncLabProtocol

/// One record of what a hosted records app shows its user.
///
/// Its fields are either values the app made (`fields`) or, for a record the app shows as the
/// cloud sent it, the cloud's own fields (`init(id:type:cloudFields:changeTag:)`): shared with
/// the record the cloud sent, so reading back a fetched record the app stored copies nothing
/// (every device reads back every record it fetched).
public struct HostedViewRecord: Sendable {
    /// The record's zone and name, kept apart: a `RecordID` hashes its names when it is made,
    /// and a reading needs only the item name (every device reads back every record it fetched).
    public var zone: String
    public var name: String
    public var id: RecordID {
        get { RecordID(zone: zone, name: name) }
        set { zone = newValue.zone; name = newValue.name }
    }
    /// `ZONE/NAME`, the record's item name (`RecordID.itemName`).
    public var itemName: String { "\(zone)/\(name)" }
    public var type: String
    /// The app's values (empty when `cloudFields` holds them).
    private var values: [String: FieldValue]
    /// The cloud's fields, every one with a value (nil: `values` holds the fields).
    private var cloudFields: [String: StoredField]?
    /// The change tag of the server version the record descends from (nil: one the app made,
    /// never saved): a record the app made shows its own existence, not another device's
    /// creation of the same name the cloud told it of.
    public var changeTag: UInt64?

    public init(id: RecordID, type: String, fields: [String: FieldValue], changeTag: UInt64? = nil) {
        self.init(zone: id.zone, name: id.name, type: type, fields: fields, changeTag: changeTag)
    }

    public init(zone: String, name: String, type: String, fields: [String: FieldValue], changeTag: UInt64? = nil) {
        self.zone = zone; self.name = name; self.type = type; self.values = fields; self.changeTag = changeTag
    }

    /// A record showing the cloud's fields as they are (`cloudFields` holds no removed field).
    public init(id: RecordID, type: String, cloudFields: [String: StoredField], changeTag: UInt64?) {
        self.init(zone: id.zone, name: id.name, type: type, cloudFields: cloudFields, changeTag: changeTag)
    }

    public init(zone: String, name: String, type: String, cloudFields: [String: StoredField], changeTag: UInt64?) {
        self.zone = zone; self.name = name; self.type = type; self.values = [:]; self.cloudFields = cloudFields; self.changeTag = changeTag
    }

    /// The value of field `name` (nil: the record shows no such field).
    public subscript(field name: String) -> FieldValue? {
        if let cloudFields { return cloudFields[name]?.value }
        return values[name]
    }

    /// Whether the record shows every field of `fields`, which all have a value (false: not
    /// known to): true when it shows the cloud's fields and they are `fields` (the same
    /// dictionary, compared by its identity first).
    func showsEvery(ofValued fields: [String: StoredField]) -> Bool {
        guard let cloudFields else { return false }
        return cloudFields == fields
    }

    /// Whether the record shows field `name` (`self[field: name] != nil`). A record holds few
    /// fields: up to `fieldScanLimit` their names are compared in turn, no name hashed (every
    /// device checks every record it reads back for the fields it showed before).
    func shows(field name: String) -> Bool {
        if let cloudFields {
            guard cloudFields.count <= HostedViewRecord.fieldScanLimit else { return cloudFields[name]?.value != nil }
            for (key, field) in cloudFields where key == name { return field.value != nil }
            return false
        }
        guard values.count <= HostedViewRecord.fieldScanLimit else { return values[name] != nil }
        for key in values.keys where key == name { return true }
        return false
    }

    /// Up to how many fields `shows(field:)` compares names in turn rather than hashing one.
    static let fieldScanLimit = 4

    /// How many fields the record shows.
    public var fieldCount: Int { cloudFields?.count ?? values.count }

    /// Calls `body` with each field and its value, in no particular order.
    public func forEachField(_ body: (String, FieldValue) -> Void) {
        if let cloudFields {
            for (name, field) in cloudFields { if let value = field.value { body(name, value) } }
        } else {
            for (name, value) in values { body(name, value) }
        }
    }

    /// Field name → value.
    public var fields: [String: FieldValue] { cloudFields?.compactMapValues(\.value) ?? values }
}
