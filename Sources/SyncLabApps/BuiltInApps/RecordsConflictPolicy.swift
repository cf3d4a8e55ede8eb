/// How a built-in records app (`PolicyRecordsApp`) settles a server version of a record that
/// meets its local edit (SPEC §4.3 `engine.records.conflict`): on `serverRecordChanged`, and
/// when a fetched change meets an edit not yet sent. Written only against the public app API.
public protocol RecordsConflictPolicy: Sendable {
    /// The record to keep, and the fields still to send. `local` is the app's copy (the last
    /// server version it saw with the user's edits on top), `edited` the fields the user changed
    /// and the cloud does not have yet, `editedAt` when the user made each of those edits by this
    /// device's clock (`SyncEngine.now`; compare with `server.modificationDate(forKey:)`), `server` the cloud's version now, `ancestor` the version
    /// `local` was based on (nil when the cloud no longer had it), and `otherSideChanged` the
    /// fields `server` changed since `ancestor` to values `local` does not hold (never empty:
    /// with none there is no conflict, and the app keeps its edits on top of `server`).
    static func settle(local: SyncRecord, edited: Set<String>, editedAt: [String: Duration], server: SyncRecord, ancestor: SyncRecord?,
                        otherSideChanged: Set<String>) -> (record: SyncRecord, stillToSend: Set<String>)

    /// Whether a record of an atomic action (`saveRecords`) that `settle` leaves nothing to
    /// send withdraws the rest of the action (true by default: the local side lost, and the
    /// action stands or falls whole, as the engine's `serverWins` drops it). False for a policy
    /// that decides field by field (`merge`: an edit lost to a later one is that field's
    /// decision, and the engine's `merge` sends the rest of the action).
    static var withdrawsAtomicActionOnLoss: Bool { get }
}

extension RecordsConflictPolicy {
    /// True: a record of an atomic action the policy leaves nothing to send withdraws the action.
    public static var withdrawsAtomicActionOnLoss: Bool { true }

    /// `server` with `fields` of `local` on top (a nil value removes the field), and which of
    /// those now differ from `server`: what a policy keeps of the local side.
    public static func server(_ server: SyncRecord, withLocal fields: Set<String>, of local: SyncRecord) -> (record: SyncRecord, stillToSend: Set<String>) {
        var record = server
        var differing: Set<String> = []
        for name in fields.sorted() where local[name] != server[name] {
            record[name] = local[name]
            differing.insert(name)
        }
        return (record, differing)
    }
}
