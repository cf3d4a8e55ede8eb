/// One record delete in a modify request, or one deletion a fetch reports (a tombstone).
///
/// Deletes are unconditional (no change tag). `write` is the delete's write id, which the
/// tombstone keeps so other devices can report the absence with the write that caused it.
public struct RecordDeletion: Hashable, Sendable {
    public var id: RecordID
    public var write: WriteID
    public init(id: RecordID, write: WriteID) { self.id = id; self.write = write }
}
