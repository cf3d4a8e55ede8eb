// Placeholder: the Documents issue defines the real messages here.
/// A request of the Documents service.
public enum DocumentRequest: Sendable {
    case placeholder
    /// Bytes on the wire that count toward transfer time (document contents, assets). Default 0.
    public var transferBytes: Int64 { 0 }
}
/// A response of the Documents service.
public enum DocumentResponse: Sendable {
    case placeholder
    public var transferBytes: Int64 { 0 }
}
