import SyncLabKernel

/// The one outcome every request gets: the service's answer, or a transport-level failure.
///
/// The transport guarantees exactly one response per request: a lost message becomes
/// `.failed(.networkFailure)` after the request timeout, so engines never wait forever.
public struct ResponseEnvelope: Sendable {
    public var requestID: UInt64
    public var device: DeviceID
    public var store: Store
    public var result: ResponseResult
    public init(requestID: UInt64, device: DeviceID, store: Store, result: ResponseResult) {
        self.requestID = requestID; self.device = device; self.store = store; self.result = result
    }
}

public enum ResponseResult: Sendable {
    case ok(ServiceResponse)
    case failed(TransportError)
}

/// A response body, by service.
public enum ServiceResponse: Sendable {
    case kvs(KVSResponse)
    case documents(DocumentResponse)
    case records(RecordResponse)

    /// The service that answers.
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

/// Failures that are not the service's answer to the request's content.
public enum TransportError: Hashable, Sendable {
    /// The device was offline when it sent: failed at once, nothing reached the cloud.
    case networkUnavailable
    /// No response within the request timeout: the cloud may or may not have applied the request.
    case networkFailure
    /// The cloud is in an outage (`cloud.outage`); try again after `retryAfter`.
    case serviceUnavailable(retryAfter: SimDuration)
    /// The cloud is throttling (`cloud.throttle`); never send again before `retryAfter`.
    case requestRateLimited(retryAfter: SimDuration)

    public var name: String {
        switch self {
        case .networkUnavailable: return "networkUnavailable"
        case .networkFailure: return "networkFailure"
        case .serviceUnavailable: return "serviceUnavailable"
        case .requestRateLimited: return "requestRateLimited"
        }
    }

    /// The earliest time to retry, if the cloud said.
    public var retryAfter: SimDuration? {
        switch self {
        case .networkUnavailable, .networkFailure: return nil
        case .serviceUnavailable(let after), .requestRateLimited(let after): return after
        }
    }
}
