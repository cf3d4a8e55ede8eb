// Placeholder: the Records issue defines the real messages here.
/// A request of the Records service.
public enum RecordRequest: Sendable {
    case placeholder
    /// Bytes on the wire that count toward transfer time (document contents, assets). Default 0.
    public var transferBytes: Int64 { 0 }
}
/// A response of the Records service.
public enum RecordResponse: Sendable {
    case placeholder
    public var transferBytes: Int64 { 0 }
}
