import SyncLabKernel
import SyncLabProtocol

/// A record as the platform shows it to a hosted records app and takes it back (a `CKRecord`
/// without write ids): type, fields, the fields the app removed, and the system fields' change tag.
public struct HostedRecord: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    public var fields: [String: FieldValue]
    /// Fields the app set to nil on a record that had them: sent as removals.
    public var removedFields: [String]
    /// The change tag of the server version this copy descends from (nil: a record the app made).
    public var changeTag: UInt64?
    /// Fields the app set to values no record field can hold: not sent (the trace says so).
    public var refusedFields: [String] = []
    /// Field name → the editing device's clock when that value (or removal) was made, as the
    /// cloud keeps it with the field (`StoredField.modifiedAt`): set on records from the cloud.
    public var fieldModifiedAt: [String: LocalInstant] = [:]

    public init(id: RecordID, type: String, fields: [String: FieldValue], removedFields: [String] = [], changeTag: UInt64?) {
        self.id = id; self.type = type; self.fields = fields; self.removedFields = removedFields; self.changeTag = changeTag
    }

    /// The server record as the app sees it.
    public init(_ server: ServerRecord) {
        var fields: [String: FieldValue] = [:]
        for name in server.fieldNames { if let value = server.fields[name]?.value { fields[name] = value } }
        self.init(id: server.id, type: server.type, fields: fields, changeTag: server.changeTag)
        for (name, field) in server.fields { fieldModifiedAt[name] = field.modifiedAt }
    }

    /// A save the device sent, as the app made it.
    public init(_ save: RecordSave) {
        var fields: [String: FieldValue] = [:]
        var removed: [String] = []
        for name in save.fieldNames {
            if let value = save.fields[name]?.value { fields[name] = value } else { removed.append(name) }
        }
        self.init(id: save.id, type: save.type, fields: fields, removedFields: removed, changeTag: save.baseTag)
    }
}
