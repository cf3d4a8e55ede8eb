/// What the cloud did with an upload.
public enum DocumentUploadOutcome: String, Hashable, Sendable {
    /// The upload descended from the current version and became current.
    case accepted
    /// A conflict: the upload became current; the previous current is a conflict version.
    case conflictWon
    /// A conflict: the upload is kept as an unresolved conflict version.
    case conflictLost
    /// An edit concurrent with a delete: the edit restored the document.
    case restored
    /// A delete concurrent with an edit: the edit stays, the delete is reported in the conflict.
    case deleteLost
    /// The document was already deleted: nothing to do.
    case alreadyDeleted
    /// The cloud already had this version (a retry whose first reply was lost).
    case alreadyApplied
    /// Concurrent, but with the current version's content: no conflict, the current stays.
    case identical
    /// A merge resolving a conflict another device had already resolved: ignored.
    case repeatResolution
    /// Past the account's storage quota: nothing changed.
    case quotaExceeded
}
