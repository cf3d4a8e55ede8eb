/// What an app call (`kvs.set`, `doc.save`, `record.save`…) returns at once.
public enum AppCallResult: Hashable, Sendable {
    /// The change is saved locally (durable) and will sync.
    case accepted
    /// Nothing changed (e.g. a record save whose fields already had those values).
    case unchanged
    /// The call failed locally; the app was told (`error` is the error's name, e.g. `invalidArgument`).
    case rejected(error: String)
}
