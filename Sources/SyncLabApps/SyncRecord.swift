internal import SyncLabProtocol
internal import SyncLabEngines

/// A record as a records app handles it, shaped after `CKRecord` (SPEC §4.3, §9): an id, a type,
/// fields (values written as in scenario files) and the system fields, of which the app sees the
/// change tag. Keep the record the cloud gave you (fetched, saved, or the server record of a
/// `serverRecordChanged`) and change its fields to send an edit: a record made afresh has no
/// change tag, and saving it over an existing record fails with `serverRecordChanged`, as in
/// CloudKit.
public struct SyncRecord: Hashable, Sendable {
    /// `CKRecord.ID`: zone name and record name (the private database).
    public struct ID: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The zone (`CKRecordZone.ID.zoneName`); `_defaultZone` is CloudKit's default zone.
        public var zoneName: String
        /// The record's name, unique in its zone.
        public var recordName: String

        /// The id of record `recordName` in zone `zoneName`.
        public init(recordName: String, zoneName: String) { self.recordName = recordName; self.zoneName = zoneName }

        /// Orders by zone, then name, by UTF-8 bytes.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.protocolID < rhs.protocolID }

        /// `ZONE/NAME`, as results name records.
        public var description: String { "\(zoneName)/\(recordName)" }

        var protocolID: RecordID { RecordID(zone: zoneName, name: recordName) }
        init(_ id: RecordID) { self.init(recordName: id.name, zoneName: id.zone) }
    }

    /// `recordID`.
    public let recordID: ID
    /// `recordType`.
    public var recordType: String
    /// Field name → value. Read and write through the subscript.
    public private(set) var fields: [String: ScenarioValue]
    /// Fields set to nil that the record had: sent as removals.
    var removedFields: Set<String> = []
    /// The change tag of the server version this copy descends from (nil: made by the app).
    var changeTag: UInt64?
    /// Field name → the editing device's clock when the cloud's value of it was made (records
    /// from the cloud only; a field set here loses its date: the value is the app's now).
    var modificationDates: [String: Duration] = [:]

    /// A new record, with no system fields (`CKRecord(recordType:recordID:)`).
    public init(recordType: String, recordID: ID) {
        self.recordType = recordType; self.recordID = recordID; self.fields = [:]
    }

    /// `record[key]`: the field's value, nil when absent; setting nil removes the field. Values
    /// are written as in scenario files; one no CloudKit field can hold (an object that is not a
    /// date, data, reference, asset or location; a list holding one) is kept here but neither
    /// shown to the checker nor sent, as `CKRecord` would not take it.
    public subscript(key: String) -> ScenarioValue? {
        get { fields[key] }
        set {
            modificationDates[key] = nil
            if let newValue, newValue != .null {
                fields[key] = newValue
                removedFields.remove(key)
            } else if fields.removeValue(forKey: key) != nil {
                // Only a field the record had is sent as a removal.
                removedFields.insert(key)
            }
        }
    }

    /// `allKeys()`: the field names, in UTF-8 order.
    public func allKeys() -> [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// When the value of field `key` (or its removal) was made, by the clock of the device that
    /// made it (`SyncEngine.now` there): the user-side modification date Apple's CKSyncEngine
    /// sample keeps in a field of the record, here kept by the cloud with each field (neither a
    /// field of its own nor counted in the record's size). Known on records from the cloud
    /// (fetched, saved, or the server record of a failure) for the fields the cloud has; nil for
    /// a field set on this copy or never in the cloud. The platform stamps a value your app
    /// sends with the time the user (or your app) made it, so a merge can take the later edit.
    public func modificationDate(forKey key: String) -> Duration? { modificationDates[key] }

    /// `recordChangeTag`: opaque, new on every server write; nil for a record the cloud never saw.
    public var recordChangeTag: String? { changeTag.map { "t\($0)" } }

    /// Copies `other`'s system fields (its change tag) onto this record, keeping this record's
    /// fields: how an app saves its local edit on top of the server's version
    /// (`encodeSystemFields` / `CKRecord(coder:)` in a real app).
    public mutating func adoptSystemFields(of other: SyncRecord) { changeTag = other.changeTag }

    init(_ record: HostedRecord) {
        recordID = ID(record.id)
        recordType = record.type
        var fields: [String: ScenarioValue] = [:]
        for (name, value) in record.fields { fields[name] = FieldConversion.value(value) }
        self.fields = fields
        removedFields = Set(record.removedFields)
        changeTag = record.changeTag
        for (name, instant) in record.fieldModifiedAt { modificationDates[name] = .microseconds(instant.microseconds) }
    }

    /// A record as the cloud sent it (what `init(HostedRecord(server))` gives, without the
    /// record in between: fetched records are converted on every device).
    init(server: ServerRecord) {
        recordID = ID(server.id)
        recordType = server.type
        // `mapValues` copies the cloud's hash table (no name hashed again, no table grown):
        // every device converts every fetched record. A removed field (no value) is left out.
        if server.fields.values.contains(where: { $0.value == nil }) {
            fields = server.fields.compactMapValues { $0.value.map(FieldConversion.value) }
        } else {
            fields = server.fields.mapValues { FieldConversion.value($0.value!) }
        }
        changeTag = server.changeTag
        modificationDates = server.fields.mapValues { .microseconds($0.modifiedAt.microseconds) }
    }

    /// The record in the platform's terms; fields no record can hold are left out.
    var hosted: HostedRecord {
        var converted: [String: FieldValue] = [:]
        var refused: [String] = []
        for (name, value) in fields {
            if let field = FieldConversion.field(value) { converted[name] = field } else { refused.append(name) }
        }
        let removed = removedFields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var record = HostedRecord(id: recordID.protocolID, type: recordType, fields: converted, removedFields: removed, changeTag: changeTag)
        record.refusedFields = refused.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return record
    }
}
