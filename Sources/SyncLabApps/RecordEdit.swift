/// The fields a user edited on one record.
public struct RecordEdit: Hashable, Sendable {
    /// The record the user edited.
    public var recordID: SyncRecord.ID
    /// Its type (the scenario's `type`).
    public var recordType: String
    /// Field → new value; `nil` removes the field. In the order the user edited them.
    public var fields: [(name: String, value: ScenarioValue?)] { edits.map { ($0.name, $0.value) } }
    var edits: [Edit]

    struct Edit: Hashable, Sendable {
        var name: String
        var value: ScenarioValue?
    }

    /// The edit applied to `record`: each field set (or removed).
    public func apply(to record: inout SyncRecord) {
        for edit in edits { record[edit.name] = edit.value }
    }

    /// The record after the edit: `record` with each field set (or removed), or, when there is
    /// none yet, a new record of `recordType` with the edited fields.
    public func applied(to record: SyncRecord?) -> SyncRecord {
        var result = record ?? SyncRecord(recordType: recordType, recordID: recordID)
        apply(to: &result)
        return result
    }
}
