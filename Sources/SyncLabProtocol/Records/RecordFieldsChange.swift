/// Which CloudKit database.
public enum DatabaseScope: String, Hashable, Sendable, CaseIterable {
    case `private`
    case `public`
}

/// One field assignment of `record.save`: a value, or `nil` to remove the field.
public struct FieldAssignment: Hashable, Sendable {
    public var name: String
    public var value: FieldValue?
    public init(name: String, value: FieldValue?) { self.name = name; self.value = value }
}

/// What an app asks to save for one record (`record.save`, or one entry of `records.saveAtomic`):
/// create it, or set the listed fields on the device's copy (fields not listed keep their values).
public struct RecordFieldsChange: Hashable, Sendable {
    public var database: DatabaseScope
    /// Zone name; `_defaultZone` when the step gives none.
    public var zone: String
    public var type: String
    public var name: String
    /// In the order the scenario lists them.
    public var fields: [FieldAssignment]
    public init(database: DatabaseScope, zone: String, type: String, name: String, fields: [FieldAssignment]) {
        self.database = database; self.zone = zone; self.type = type; self.name = name; self.fields = fields
    }
    /// `ZONE/NAME`, the record's item name in results.
    public var itemName: String { "\(zone)/\(name)" }
}
