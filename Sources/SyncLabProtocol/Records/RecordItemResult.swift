/// The outcome of one item of a modify request, in request order (saves, then deletes).
public enum RecordItemResult: Hashable, Sendable {
    /// The save was applied (or had been applied already: re-sending a write is idempotent);
    /// carries the server record now stored.
    case saved(ServerRecord)
    /// The delete was applied (deleting a record that is already gone succeeds). `cascaded` are
    /// the further records deleted along `deleteSelf` references, sorted.
    case deleted(RecordID, cascaded: [RecordID])
    /// A delete re-sent after its answer was lost, which the cloud had applied: the record was
    /// created again since (an edit after the delete wins), and `current` is it. The device
    /// shows it instead of deleting it again (requests are idempotent, SPEC §3.2).
    case deletedBefore(RecordID, current: ServerRecord)
    case failed(RecordID, RecordError)
}
