import Foundation
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

    /// The record's parts, as a value (what `SyncRecord` held inline until session 13).
    struct Parts {
        var recordID: ID
        var recordType: String
        /// The fields of a record made or changed here (empty while `sharedFields` holds them).
        var ownFields: [String: ScenarioValue]
        /// Fields set to nil that the record had: sent as removals.
        var removedFields: Set<String> = []
        /// The change tag of the server version this copy descends from (nil: made by the app).
        var changeTag: UInt64?
        /// Field name → the editing device's clock when the cloud's value of it was made (records
        /// from the cloud only; a field set here loses its date: the value is the app's now).
        /// Empty while `sharedFields` holds them.
        var ownDates: [String: Duration] = [:]
        /// The fields and their dates as the cloud sent them, shared with the cloud's record (nil:
        /// `ownFields` and `ownDates` hold them). Every device converted every fetched record into
        /// dictionaries of its own, and freed them when the next version replaced it; a record
        /// stored as it came is now never converted, and its first change converts it.
        var sharedFields: (any CloudFieldsSource)?
    }

    /// The parts in one copy-on-write box (session 13): every fetched record is copied and
    /// destroyed about four times on every device (the event's list, the app's loop, its store,
    /// the platform's reading back), and inline each copy was 136 bytes whose seven references
    /// (three strings, three collections and the fields' existential, copied through its value
    /// witness) were retained one by one. Boxed, a copy is one retain. Changed only while
    /// uniquely referenced (`parts`' `_modify`), so a box another copy can see never changes:
    /// safe to share across threads. (`ServerRecord`'s box is the same idiom, not shared: a
    /// stored property of a type from the platform's modules, which this file imports
    /// `internal`, would break `SyncRecord`'s layout in its users' modules; see `CloudFieldsSource`.)
    final class PartsBox: @unchecked Sendable {
        /// Unchecked: a class's stored `var` is otherwise checked for overlapping access at run
        /// time at every read; no access here overlaps another, since a shared box is never written.
        @exclusivity(unchecked) var parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var box: PartsBox

    /// The parts to change, the box copied first if another copy shares it.
    private var parts: Parts {
        get { box.parts }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = PartsBox(box.parts) }
            yield &box.parts
        }
    }

    /// `recordID`.
    public var recordID: ID { box.parts.recordID }
    /// `recordType`.
    public var recordType: String {
        get { box.parts.recordType }
        _modify { yield &parts.recordType }
    }
    /// Field name → value. Read and write through the subscript.
    public var fields: [String: ScenarioValue] { box.parts.sharedFields?.fieldValues ?? box.parts.ownFields }
    /// Fields set to nil that the record had: sent as removals.
    var removedFields: Set<String> {
        get { box.parts.removedFields }
        _modify { yield &parts.removedFields }
    }
    /// The change tag of the server version this copy descends from (nil: made by the app).
    var changeTag: UInt64? {
        get { box.parts.changeTag }
        _modify { yield &parts.changeTag }
    }

    /// A new record, with no system fields (`CKRecord(recordType:recordID:)`).
    public init(recordType: String, recordID: ID) {
        box = PartsBox(Parts(recordID: recordID, recordType: recordType, ownFields: [:]))
    }

    /// `record[key]`: the field's value, nil when absent; setting nil removes the field. Values
    /// are written as in scenario files; one no CloudKit field can hold (an object that is not a
    /// date, data, reference, asset or location; a list holding one) is kept here but neither
    /// shown to the checker nor sent, as `CKRecord` would not take it.
    public subscript(key: String) -> ScenarioValue? {
        get {
            if let sharedFields = box.parts.sharedFields { return sharedFields.fieldValue(forKey: key) }
            return box.parts.ownFields[key]
        }
        set {
            convertCloudFields()
            parts.ownDates[key] = nil
            if let newValue, newValue != .null {
                parts.ownFields[key] = newValue
                parts.removedFields.remove(key)
            } else if parts.ownFields.removeValue(forKey: key) != nil {
                // Only a field the record had is sent as a removal.
                parts.removedFields.insert(key)
            }
        }
    }

    /// `allKeys()`: the field names, in UTF-8 order.
    public func allKeys() -> [String] { (box.parts.sharedFields?.fieldNames ?? Array(box.parts.ownFields.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// When the value of field `key` (or its removal) was made, by the clock of the device that
    /// made it (`SyncEngine.now` there): the user-side modification date Apple's CKSyncEngine
    /// sample keeps in a field of the record, here kept by the cloud with each field (neither a
    /// field of its own nor counted in the record's size). Known on records from the cloud
    /// (fetched, saved, or the server record of a failure) for the fields the cloud has; nil for
    /// a field set on this copy or never in the cloud. The platform stamps a value your app
    /// sends with the time the user (or your app) made it, so a merge can take the later edit.
    public func modificationDate(forKey key: String) -> Duration? {
        if let sharedFields = box.parts.sharedFields { return sharedFields.fieldDate(forKey: key) }
        return box.parts.ownDates[key]
    }

    /// Field name → modification date (`modificationDate(forKey:)`).
    var modificationDates: [String: Duration] { box.parts.sharedFields?.fieldDates ?? box.parts.ownDates }

    /// The cloud's fields this record shows as they came (nil: converted, or made here).
    var cloudStoredFields: [String: StoredField]? { box.parts.sharedFields?.storedFields }

    /// Before the first change of a record stored as the cloud sent it: its fields become its own.
    private mutating func convertCloudFields() {
        guard let sharedFields = box.parts.sharedFields else { return }
        parts.ownFields = sharedFields.fieldValues
        parts.ownDates = sharedFields.fieldDates
        parts.sharedFields = nil
    }

    /// Same id, type, change tag, fields and their dates, and fields removed.
    public static func == (lhs: SyncRecord, rhs: SyncRecord) -> Bool {
        // Copies of one record share its box (a box another copy sees never changes).
        if lhs.box === rhs.box { return true }
        guard lhs.recordID == rhs.recordID, lhs.recordType == rhs.recordType, lhs.changeTag == rhs.changeTag,
              lhs.removedFields == rhs.removedFields else { return false }
        if let left = lhs.box.parts.sharedFields, let right = rhs.box.parts.sharedFields, left.isSame(as: right) { return true }
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
        var fields: [String: ScenarioValue] = [:]
        for (name, value) in record.fields { fields[name] = FieldConversion.value(value) }
        var parts = Parts(recordID: ID(record.id), recordType: record.type, ownFields: fields, removedFields: Set(record.removedFields), changeTag: record.changeTag)
        for (name, instant) in record.fieldModifiedAt { parts.ownDates[name] = .microseconds(instant.microseconds) }
        box = PartsBox(parts)
    }

    /// A record as the cloud sent it (what `init(HostedRecord(server))` gives, without the
    /// record in between: fetched records are converted on every device), holding the cloud's
    /// fields as they are (`sharedFields`) unless one is a removal.
    ///
    /// The box is made once per server version and shared by every device it is shown to
    /// (`ServerRecord.hostedForm`), as copies of one record share it: a box another holder sees
    /// is never changed, so an app's change copies it first. (Every device made, stored and, when
    /// the next version replaced it, freed a box of its own for every version it fetched, a
    /// per-device object out of the cache at 1,000 devices.)
    init(server: ServerRecord) {
        SyncRecord.sharedBoxLock.lock()
        defer { SyncRecord.sharedBoxLock.unlock() }
        if let shared = server.hostedForm as? PartsBox {
            box = shared
            return
        }
        box = PartsBox(SyncRecord.parts(of: server))
        server.hostedForm = box
    }

    /// Whether this record and `other` share one box (copies of one record, or records made
    /// from one server version).
    func sharesBox(with other: SyncRecord) -> Bool { box === other.box }

    /// Guards `ServerRecord.hostedForm`: copies of a server record (a world copied and run
    /// on another thread) share it.
    private static let sharedBoxLock = NSLock()

    /// The parts of a record as the cloud sent it, holding the cloud's fields as they are
    /// (`sharedFields`) unless one is a removal.
    private static func parts(of server: ServerRecord) -> Parts {
        let fields = server.fields
        guard !fields.values.contains(where: { $0.value == nil }) else {
            // A removed field (no value) is left out. `mapValues` copies the cloud's hash table
            // (no name hashed again, no table grown).
            return Parts(recordID: ID(server.id), recordType: server.type, ownFields: fields.compactMapValues { $0.value.map(FieldConversion.value) },
                         changeTag: server.changeTag, ownDates: fields.mapValues { .microseconds($0.modifiedAt.microseconds) })
        }
        return Parts(recordID: ID(server.id), recordType: server.type, ownFields: [:], changeTag: server.changeTag, sharedFields: CloudFields(storedFields: fields))
    }

    /// The record in the platform's terms; fields no record can hold are left out.
    var hosted: HostedRecord {
        if let stored = cloudStoredFields {
            // The cloud's values as they came: nothing to convert, none refused or removed.
            return HostedRecord(id: recordID.protocolID, type: recordType, fields: stored.mapValues { $0.value! }, changeTag: changeTag)
        }
        var converted: [String: FieldValue] = [:]
        var refused: [String] = []
        for (name, value) in box.parts.ownFields {
            if let field = FieldConversion.field(value) { converted[name] = field } else { refused.append(name) }
        }
        let removed = removedFields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var record = HostedRecord(id: recordID.protocolID, type: recordType, fields: converted, removedFields: removed, changeTag: changeTag)
        record.refusedFields = refused.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return record
    }
}
