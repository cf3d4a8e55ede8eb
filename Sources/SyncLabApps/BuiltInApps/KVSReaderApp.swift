/// The built-in KVS app `reader`, every device's default: an app that only reads. The user's
/// edits are stored as the user's writes; on a change from elsewhere it writes nothing (its
/// views read the store when they are drawn).
public struct KVSReaderApp: KeyValueStoreApp, Sendable {
    /// The app: it keeps no state of its own.
    public init() {}

    /// Writes nothing: the store already holds the change.
    public func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {}
}
