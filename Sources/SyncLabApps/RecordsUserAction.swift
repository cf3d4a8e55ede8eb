/// What the user did through a records app (a scenario's records op).
public enum RecordsUserAction: Hashable, Sendable {
    /// `record.save`: the user edited these fields (a nil value removes one); the record is
    /// created if the app has none.
    case saveRecord(RecordEdit)
    /// `record.delete`.
    case deleteRecord(SyncRecord.ID)
    /// `records.saveAtomic`: the user changed several records of one zone in one action, meant
    /// all or nothing (send them in a batch with `atomicByZone`).
    case saveRecords([RecordEdit], deleting: [SyncRecord.ID])
    /// `zone.create`.
    case createZone(String)
    /// `zone.delete` through the app (a deletion from Settings never reaches the app this way:
    /// it hears of it as a fetched zone deletion with reason `purged`).
    case deleteZone(String)
}
