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

        /// Orders by zone, then name, by UTF-8 bytes (compared in place: going through two
        /// `RecordID`s hashed both ids' names on every comparison).
        public static func < (lhs: ID, rhs: ID) -> Bool {
            if lhs.zoneName != rhs.zoneName { return lhs.zoneName.utf8.lexicographicallyPrecedes(rhs.zoneName.utf8) }
            return lhs.recordName.utf8.lexicographicallyPrecedes(rhs.recordName.utf8)
        }

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
    public var fields: [String: ScenarioValue] { sharedFields?.fieldValues ?? ownFields }
    /// The fields of a record made or changed here (empty while `sharedFields` holds them).
    private var ownFields: [String: ScenarioValue]
    /// Fields set to nil that the record had: sent as removals.
    var removedFields: Set<String> = []
    /// The change tag of the server version this copy descends from (nil: made by the app).
    var changeTag: UInt64?
    /// Field name → the editing device's clock when the cloud's value of it was made (records
    /// from the cloud only; a field set here loses its date: the value is the app's now).
    /// Empty while `sharedFields` holds them.
    private var ownDates: [String: Duration] = [:]
    /// The fields and their dates as the cloud sent them, shared with the cloud's record (nil:
    /// `ownFields` and `ownDates` hold them). Every device converted every fetched record into
    /// dictionaries of its own, and freed them when the next version replaced it; a record
    /// stored as it came is now never converted, and its first change converts it.
    private var sharedFields: (any CloudFieldsSource)?

    /// A new record, with no system fields (`CKRecord(recordType:recordID:)`).
    public init(recordType: String, recordID: ID) {
        self.recordType = recordType; self.recordID = recordID; self.ownFields = [:]
    }

    /// `record[key]`: the field's value, nil when absent; setting nil removes the field. Values
    /// are written as in scenario files; one no CloudKit field can hold (an object that is not a
    /// date, data, reference, asset or location; a list holding one) is kept here but neither
    /// shown to the checker nor sent, as `CKRecord` would not take it.
    public subscript(key: String) -> ScenarioValue? {
        get {
            if let sharedFields { return sharedFields.fieldValue(forKey: key) }
            return ownFields[key]
        }
        set {
            convertCloudFields()
            ownDates[key] = nil
            if let newValue, newValue != .null {
                ownFields[key] = newValue
                removedFields.remove(key)
            } else if ownFields.removeValue(forKey: key) != nil {
                // Only a field the record had is sent as a removal.
                removedFields.insert(key)
            }
        }
    }

    /// `allKeys()`: the field names, in UTF-8 order.
    public func allKeys() -> [String] { (sharedFields?.fieldNames ?? Array(ownFields.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// When the value of field `key` (or its removal) was made, by the clock of the device that
    /// made it (`SyncEngine.now` there): the user-side modification date Apple's CKSyncEngine
    /// sample keeps in a field of the record, here kept by the cloud with each field (neither a
    /// field of its own nor counted in the record's size). Known on records from the cloud
    /// (fetched, saved, or the server record of a failure) for the fields the cloud has; nil for
    /// a field set on this copy or never in the cloud. The platform stamps a value your app
    /// sends with the time the user (or your app) made it, so a merge can take the later edit.
    public func modificationDate(forKey key: String) -> Duration? {
        if let sharedFields { return sharedFields.fieldDate(forKey: key) }
        return ownDates[key]
    }

    /// Field name → modification date (`modificationDate(forKey:)`).
    var modificationDates: [String: Duration] { sharedFields?.fieldDates ?? ownDates }

    /// The cloud's fields this record shows as they came (nil: converted, or made here).
    var cloudStoredFields: [String: StoredField]? { sharedFields?.storedFields }

    /// Before the first change of a record stored as the cloud sent it: its fields become its own.
    private mutating func convertCloudFields() {
        guard let sharedFields else { return }
        ownFields = sharedFields.fieldValues
        ownDates = sharedFields.fieldDates
        self.sharedFields = nil
    }

    /// Same id, type, change tag, fields and their dates, and fields removed.
    public static func == (lhs: SyncRecord, rhs: SyncRecord) -> Bool {
        guard lhs.recordID == rhs.recordID, lhs.recordType == rhs.recordType, lhs.changeTag == rhs.changeTag,
              lhs.removedFields == rhs.removedFields else { return false }
        if let left = lhs.sharedFields, let right = rhs.sharedFields, left.isSame(as: right) { return true }
        return lhs.fields == rhs.fields && lhs.modificationDates == rhs.modificationDates
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordID)
        hasher.combine(recordType)
        hasher.combine(fields)
        hasher.combine(removedFields)
        hasher.combine(changeTag)
        hasher.combine(modificationDates)
    }

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
        ownFields = fields
        removedFields = Set(record.removedFields)
        changeTag = record.changeTag
        for (name, instant) in record.fieldModifiedAt { ownDates[name] = .microseconds(instant.microseconds) }
    }

    /// A record as the cloud sent it (what `init(HostedRecord(server))` gives, without the
    /// record in between: fetched records are converted on every device), holding the cloud's
    /// fields as they are (`sharedFields`) unless one is a removal.
    init(server: ServerRecord) {
        recordID = ID(server.id)
        recordType = server.type
        changeTag = server.changeTag
        if server.fields.values.contains(where: { $0.value == nil }) {
            // A removed field (no value) is left out. `mapValues` copies the cloud's hash table
            // (no name hashed again, no table grown).
            ownFields = server.fields.compactMapValues { $0.value.map(FieldConversion.value) }
            ownDates = server.fields.mapValues { .microseconds($0.modifiedAt.microseconds) }
        } else {
            ownFields = [:]
            sharedFields = CloudFields(storedFields: server.fields)
        }
    }

    /// The record in the platform's terms; fields no record can hold are left out.
    var hosted: HostedRecord {
        if let stored = cloudStoredFields {
            // The cloud's values as they came: nothing to convert, none refused or removed.
            return HostedRecord(id: recordID.protocolID, type: recordType, fields: stored.mapValues { $0.value! }, changeTag: changeTag)
        }
        var converted: [String: FieldValue] = [:]
        var refused: [String] = []
        for (name, value) in ownFields {
            if let field = FieldConversion.field(value) { converted[name] = field } else { refused.append(name) }
        }
        let removed = removedFields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var record = HostedRecord(id: recordID.protocolID, type: recordType, fields: converted, removedFields: removed, changeTag: changeTag)
        record.refusedFields = refused.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return record
    }
}
