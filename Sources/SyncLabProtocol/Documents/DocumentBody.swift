/// What one document version holds.
///
/// A version the cloud knows only by id (an intermediate local save that was folded into a later
/// upload, as the iCloud daemon uploads a document as it is) is `.unavailable`: its content never
/// left the device that made it.
public enum DocumentBody: Hashable, Sendable {
    /// The document's content at this version.
    case content(DocumentContent)
    /// The version deletes the document (a tombstone).
    case deleted
    /// Only the version's id and parents are known.
    case unavailable

    /// The content, or nil for a tombstone or an unavailable body.
    public var content: DocumentContent? {
        switch self {
        case .content(let content): return content
        case .deleted, .unavailable: return nil
        }
    }

    /// Bytes of content this body carries on the wire and in storage.
    public var sizeBytes: Int64 { content?.sizeBytes ?? 0 }
}
