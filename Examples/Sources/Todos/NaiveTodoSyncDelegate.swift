import SyncLab

/// The naive twin of `TodoSyncDelegate`: on `serverRecordChanged` it takes the server's record
/// ("the server is the source of truth") and forgets the local edit. Everything else is the same.
public struct NaiveTodoSyncDelegate: RecordsApp {
    var careful: TodoSyncDelegate

    public init(disk: TodoStore?) { careful = TodoSyncDelegate(disk: disk) }
    public var disk: TodoStore { careful.disk }
    public var stateSerialization: SyncEngine.State.Serialization? { careful.stateSerialization }

    public mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) { careful.userDid(action, syncEngine: &syncEngine) }

    public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
        guard case .sentRecordZoneChanges(var sent) = event else {
            careful.handleEvent(event, syncEngine: &syncEngine)
            return
        }
        let conflicts = sent.failedRecordSaves.filter { $0.error.code == .serverRecordChanged }
        sent.failedRecordSaves.removeAll { $0.error.code == .serverRecordChanged }
        careful.handleEvent(.sentRecordZoneChanges(sent), syncEngine: &syncEngine)
        for failure in conflicts {
            guard let server = failure.error.serverRecord else { continue }
            var item = TodoItem(lastKnownRecord: nil, needsUpload: false)
            item.take(server)   // the bug: the local edit is dropped
            careful.store.items[server.recordID] = item
        }
    }

    public func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        careful.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine)
    }

    public var userSees: SyncRecordStore { careful.userSees }
}
