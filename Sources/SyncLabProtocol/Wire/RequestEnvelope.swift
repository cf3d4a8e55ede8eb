/// A request from a device's engine to the cloud, as it travels the simulated network.
///
/// `account` is the account the device was signed into when it sent the request: the cloud
/// serves only that account's data (isolation, SPEC §3.4).
public struct RequestEnvelope: Sendable {
    /// Chosen by the sending engine; unique per (device, service) within one boot of the device.
    public var requestID: UInt64
    public var device: DeviceID
    public var account: AccountID
    public var body: ServiceRequest

    public init(requestID: UInt64, device: DeviceID, account: AccountID, body: ServiceRequest) {
        self.requestID = requestID; self.device = device; self.account = account; self.body = body
    }
}

/// A request body, by service.
public enum ServiceRequest: Sendable {
    case kvs(KVSRequest)
    case documents(DocumentRequest)
    case records(RecordRequest)

    public var store: Store {
        switch self {
        case .kvs: return .kvs
        case .documents: return .documents
        case .records: return .records
        }
    }

    /// Bytes that take transfer time on the link (document contents, assets).
    public var transferBytes: Int64 {
        switch self {
        case .kvs(let body): return body.transferBytes
        case .documents(let body): return body.transferBytes
        case .records(let body): return body.transferBytes
        }
    }
}
