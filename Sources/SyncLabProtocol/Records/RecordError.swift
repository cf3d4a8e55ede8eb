/// A per-item error of a modify request, named after CKError codes.
public enum RecordError: Hashable, Sendable {
    /// The save's change tag is stale: carries the server record, the client's save, and the
    /// ancestor (the server version the client's tag names, when the cloud still has it).
    case serverRecordChanged(server: ServerRecord, client: RecordSave, ancestor: ServerRecord?)
    /// The save names a server version of a record that no longer exists (deleted elsewhere).
    case unknownItem
    /// The zone does not exist (never created, or deleted by an app).
    case zoneNotFound
    /// The user deleted the zone from Settings.
    case userDeletedZone
    /// The record (or one of its assets) is over a limit: `limit` names it
    /// (`records.recordBytes`, `records.assetBytes`).
    case limitExceeded(limit: String)
    /// The account's storage quota is full.
    case quotaExceeded
    /// Schema violation in production (unknown type or field, or a field's type changed).
    case invalidArguments(detail: String)
    /// Public database: only a record's creator may modify or delete it.
    case permissionFailure
    /// Atomic batch: this item was fine, another one failed, so nothing was applied.
    case batchRequestFailed

    /// The CKError-style name, for traces and rejections.
    public var name: String {
        switch self {
        case .serverRecordChanged: return "serverRecordChanged"
        case .unknownItem: return "unknownItem"
        case .zoneNotFound: return "zoneNotFound"
        case .userDeletedZone: return "userDeletedZone"
        case .limitExceeded: return "limitExceeded"
        case .quotaExceeded: return "quotaExceeded"
        case .invalidArguments: return "invalidArguments"
        case .permissionFailure: return "permissionFailure"
        case .batchRequestFailed: return "batchRequestFailed"
        }
    }
}
