import SyncLabProtocol

/// One pending record change (`CKSyncEngine.PendingRecordZoneChange`), private database.
public enum PendingRecordChangeData: Hashable, Sendable {
    case save(RecordID)
    case delete(RecordID)

    /// The record the change is about.
    public var id: RecordID {
        switch self {
        case .save(let id), .delete(let id): return id
        }
    }
}
