/// The content of a document: text, or synthetic bytes of a given size (`{"$size": "3MB"}`).
public enum DocumentContent: Hashable, Sendable {
    case text(String)
    /// Bytes nobody reads, only their size. `origin` is the user write that made these bytes:
    /// a user's `doc.save` or `doc.append` of synthetic content makes new bytes (two videos of
    /// the same size saved on two devices are two videos, not one), while a download or a
    /// conflict copy keeps the bytes, origin and all. Nil in content a scenario file names (an
    /// `assert` or `expect.final`), which compares by size alone (`matches(expected:)`); never
    /// written to traces or reports, which show `{"$size": BYTES}`.
    case synthetic(sizeBytes: Int64, origin: WriteID? = nil)

    /// Bytes on disk and on the wire.
    public var sizeBytes: Int64 {
        switch self {
        case .text(let text): return Int64(text.utf8.count)
        case .synthetic(let size, _): return size
        }
    }

    /// This content with `text` appended (`doc.append`). Synthetic content grows by the text's
    /// bytes, and the result is new bytes, made by `write`.
    /// - Returns: nil when the result would pass 2^63 - 1 bytes, the largest file size (a write
    ///   past it fails, as `EFBIG` does).
    public func appending(_ text: String, write: WriteID) -> DocumentContent? {
        switch self {
        case .text(let existing): return .text(existing + text)
        case .synthetic(let size, _):
            let (grown, overflow) = size.addingReportingOverflow(Int64(text.utf8.count))
            return overflow ? nil : .synthetic(sizeBytes: grown, origin: write)
        }
    }

    /// This content as a user's save of it makes it: synthetic content gets `write` as its origin
    /// (new bytes); text is its own identity.
    public func saved(by write: WriteID) -> DocumentContent {
        switch self {
        case .text: return self
        case .synthetic(let size, _): return .synthetic(sizeBytes: size, origin: write)
        }
    }

    /// Whether this content is what a scenario file expects: text exactly; synthetic content by
    /// size when `expected` names no origin (a file cannot).
    public func matches(expected: DocumentContent) -> Bool {
        switch (self, expected) {
        case (.synthetic(let size, _), .synthetic(let wanted, nil)): return size == wanted
        default: return self == expected
        }
    }
}
