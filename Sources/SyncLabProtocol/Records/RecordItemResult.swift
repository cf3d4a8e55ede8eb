/// The outcome of one item of a modify request, in request order (saves, then deletes).
public enum RecordItemResult: Hashable, Sendable {
    /// The save was applied (or had been applied already: re-sending a write is idempotent);
    /// carries the server record now stored.
    case saved(ServerRecord)
    /// The delete was applied (deleting a record that is already gone succeeds). `cascaded` are
    /// the further records deleted along `deleteSelf` references, sorted.
    case deleted(RecordID, cascaded: [RecordID])
    case failed(RecordID, RecordError)
}
