/// A team's KVS code on one virtual device (SPEC §9): the observer of
/// `NSUbiquitousKeyValueStore.didChangeExternallyNotification`. Port it mechanically: the body
/// of your notification handler becomes `storeDidChangeExternally(_:store:)`, and
/// `NSUbiquitousKeyValueStore.default` becomes `store`.
///
/// The app is made when the app launches (install, and restart after a crash): its memory does
/// not survive a crash; what it wrote to the store does. Scenario user ops (`kvs.set`…) are the
/// user's edits through the app's UI: they are stored (as the user's writes), then the app is
/// told with `userDidChange(_:store:)`.
///
/// Write ids are the platform's: setting a key to the value it already shows is no write; any
/// other value is the app's own write, built on the writes behind the keys it read (with
/// `object(forKey:)` or `dictionaryRepresentation`). An app that writes without reading
/// overwrites blindly, and the checker says so.
public protocol KeyValueStoreApp {
    /// Told of a change the app did not make (reason and keys as SPEC §4.1), and of its own
    /// writes the store refused for a quota (`.quotaViolationChange`).
    mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore)

    /// The user changed `keys` through the app (already in `store`). Default: nothing more.
    mutating func userDidChange(_ keys: [String], store: KeyValueStore)
}

extension KeyValueStoreApp {
    /// Does nothing: the user's change is already stored.
    public mutating func userDidChange(_ keys: [String], store: KeyValueStore) {}
}

/// `didChangeExternallyNotification`'s user info.
public struct KeyValueStoreChange: Hashable, Sendable {
    /// `NSUbiquitousKeyValueStoreChangeReasonKey`.
    public enum Reason: Int, Hashable, Sendable {
        case serverChange = 0
        case initialSyncChange = 1
        case quotaViolationChange = 2
        case accountChange = 3
    }
    /// Why the store changed.
    public var reason: Reason
    /// `NSUbiquitousKeyValueStoreChangedKeysKey`: the keys, in UTF-8 order.
    public var changedKeys: [String]
}
