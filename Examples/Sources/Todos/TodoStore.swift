import SyncLab

/// The app's own local database: to-dos by record id, the zones it created, and the sync
/// engine's state serialization it saved last. All of it is persisted (the app's disk).
public struct TodoStore: Sendable {
    public var items: [SyncRecord.ID: TodoItem] = [:]
    public var zones: Set<String> = []
    public var syncState: SyncEngine.State.Serialization?
    public init() {}

    /// The record to send for `id`: the last known server record (keeping its change tag) with
    /// this item's fields on it, or a new record.
    func record(for id: SyncRecord.ID) -> SyncRecord? {
        guard let item = items[id] else { return nil }
        var record = item.lastKnownRecord ?? SyncRecord(recordType: "Todo", recordID: id)
        item.populate(&record)
        return record
    }

    /// Every to-do as the user sees it. Made afresh at each reading, so the platform compares
    /// every record each time: fine for a list this size; a large one keeps a `SyncRecordStore`.
    var view: SyncRecordStore {
        var records: [SyncRecord.ID: SyncRecord] = [:]
        for (id, item) in items {
            var record = SyncRecord(recordType: "Todo", recordID: id)
            item.populate(&record)
            records[id] = record
        }
        return SyncRecordStore(records)
    }
}
