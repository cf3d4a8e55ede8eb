import SyncLabProtocol

/// What the user did through a hosted records app (a scenario's records op).
public enum HostedUserAction: Sendable {
    /// `record.save`: set these fields (nil removes one), creating the record if needed.
    case saveRecord(id: RecordID, type: String, fields: [FieldAssignment])
    /// `record.delete`.
    case deleteRecord(RecordID)
    /// `records.saveAtomic`: several records of one zone saved and deleted in one action.
    case saveAtomically(saves: [(id: RecordID, type: String, fields: [FieldAssignment])], deletes: [RecordID])
    /// `zone.create`.
    case createZone(String)
    /// `zone.delete` through the app (not from Settings).
    case deleteZone(String)
}
