/// An unresolved conflict version kept beside a document's current version (NSFileVersion's
/// `unresolvedConflictVersionsOfItem`).
public struct DocumentConflict: Hashable, Sendable {
    public var version: DocumentVersion
    /// The cloud numbers conflict versions from 1 per (document, author name) as it detects them,
    /// so every device names a `keepBoth` copy `NAME (conflict DEVICE N).EXT` alike.
    public var ordinal: Int

    public init(version: DocumentVersion, ordinal: Int) { self.version = version; self.ordinal = ordinal }
}
