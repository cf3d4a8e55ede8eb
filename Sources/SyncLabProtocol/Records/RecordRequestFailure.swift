import SyncLabKernel

/// A service-level failure of a whole records request (not per item).
public enum RecordRequestFailure: Hashable, Sendable {
    /// The request is over `limits.records.batch` items or `limits.records.requestBytes`: split it.
    case limitExceeded
    /// A database change token from before `cloud.expireTokens`: fetch again from scratch.
    case changeTokenExpired
    /// The zone is busy; try again no earlier than `retryAfter`.
    case zoneBusy(retryAfter: SimDuration)
    /// Too many requests; try again no earlier than `retryAfter`.
    case requestRateLimited(retryAfter: SimDuration)
    /// The request is not allowed (e.g. custom zones in the public database).
    case invalidArguments(detail: String)

    public var name: String {
        switch self {
        case .limitExceeded: return "limitExceeded"
        case .changeTokenExpired: return "changeTokenExpired"
        case .zoneBusy: return "zoneBusy"
        case .requestRateLimited: return "requestRateLimited"
        case .invalidArguments: return "invalidArguments"
        }
    }

    /// The earliest time to retry, if the cloud said.
    public var retryAfter: SimDuration? {
        switch self {
        case .zoneBusy(let after), .requestRateLimited(let after): return after
        case .limitExceeded, .changeTokenExpired, .invalidArguments: return nil
        }
    }
}
