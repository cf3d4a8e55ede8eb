// Placeholder: the KVS issue defines the real messages here.
/// A request of the KVS service.
public enum KVSRequest: Sendable {
    case placeholder
    /// Bytes on the wire that count toward transfer time (document contents, assets). Default 0.
    public var transferBytes: Int64 { 0 }
}
/// A response of the KVS service.
public enum KVSResponse: Sendable {
    case placeholder
    public var transferBytes: Int64 { 0 }
}
