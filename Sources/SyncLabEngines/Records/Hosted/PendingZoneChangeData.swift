import SyncLabProtocol

/// One pending zone change (`CKSyncEngine.PendingDatabaseChange`), private database.
public enum PendingZoneChangeData: Hashable, Sendable {
    case save(String)
    case delete(String)

    /// The zone the change is about.
    public var zone: String {
        switch self {
        case .save(let zone), .delete(let zone): return zone
        }
    }
}
