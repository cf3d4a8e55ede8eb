/// The built-in KVS app `reader`, every device's default: an app that only reads. The user's
/// edits are stored as the user's writes; on a change from elsewhere it writes nothing (its
/// views read the store when they are drawn).
public struct KVSReaderApp: KeyValueStoreApp, Sendable {
    public init() {}

    public func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {}
}
