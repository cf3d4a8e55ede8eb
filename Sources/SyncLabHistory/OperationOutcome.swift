/// How a user-level operation ended, as the app saw it when it made the call.
public enum OperationOutcome: Hashable, Sendable {
    /// The device took the write: it is the app's local value now and will be synced.
    case accepted
    /// The call changed nothing (e.g. a remove of an absent key): no write was made.
    case unchanged
    /// The engine refused the call at once and told the app (`error` names the error).
    case rejected(error: String)
}
