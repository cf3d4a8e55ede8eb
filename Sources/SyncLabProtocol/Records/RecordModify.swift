/// A modify request (CKModifyRecordsOperation): saves and deletes in one database.
public struct RecordModify: Hashable, Sendable {
    public var database: DatabaseScope
    public var saves: [RecordSave]
    public var deletes: [RecordDeletion]
    /// All or nothing (custom zones only; the default zone ignores it, as CloudKit's does).
    public var atomic: Bool
    public var savePolicy: SavePolicy

    public init(database: DatabaseScope, saves: [RecordSave], deletes: [RecordDeletion], atomic: Bool, savePolicy: SavePolicy) {
        self.database = database; self.saves = saves; self.deletes = deletes; self.atomic = atomic; self.savePolicy = savePolicy
    }

    /// Items counted against `limits.records.batch`.
    public var itemCount: Int { saves.count + deletes.count }
    /// Bytes counted against `limits.records.requestBytes` (assets excluded).
    public var sizeBytes: Int { saves.reduce(0) { $0 + $1.sizeBytes } + deletes.reduce(0) { $0 + $1.id.name.utf8.count } }
}
