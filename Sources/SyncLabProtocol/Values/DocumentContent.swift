/// The content of a document: text, or synthetic bytes of a given size (`{"$size": "3MB"}`).
public enum DocumentContent: Hashable, Sendable {
    case text(String)
    case synthetic(sizeBytes: Int64)

    /// Bytes on disk and on the wire.
    public var sizeBytes: Int64 {
        switch self {
        case .text(let text): return Int64(text.utf8.count)
        case .synthetic(let size): return size
        }
    }

    /// This content with `text` appended (`doc.append`). Synthetic content grows by the text's bytes.
    public func appending(_ text: String) -> DocumentContent {
        switch self {
        case .text(let existing): return .text(existing + text)
        case .synthetic(let size): return .synthetic(sizeBytes: size + Int64(text.utf8.count))
        }
    }
}
