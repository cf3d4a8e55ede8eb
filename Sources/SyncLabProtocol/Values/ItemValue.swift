/// The value of one checked item as an app sees it, or as the cloud holds it.
public enum ItemValue: Hashable, Sendable {
    /// The item does not exist (never written, removed or deleted).
    case absent
    case kvs(PlistValue)
    case document(DocumentContent)
    /// One record field. A record's existence item (field `""`) uses `.recordExists`.
    case field(FieldValue)
    /// The record exists; its type is given.
    case recordExists(type: String)
}

extension ItemValue {
    /// Whether this is the document content a scenario file expects (`nil`: absent), as
    /// `assert` and `expect.final` compare: synthetic content by its size.
    public func matches(expectedDocument expected: DocumentContent?) -> Bool {
        switch (self, expected) {
        case (.absent, nil): return true
        case (.document(let content), let wanted?): return content.matches(expected: wanted)
        default: return false
        }
    }
}
