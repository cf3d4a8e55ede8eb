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
