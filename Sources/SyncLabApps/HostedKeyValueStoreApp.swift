package import SyncLabEngines
internal import SyncLabProtocol

/// Adapts a `KeyValueStoreApp` (a team's, or the built-in `reader`) to the platform's hosting protocol.
package struct HostedKeyValueStoreApp: KVSAppHosting {
    var app: any KeyValueStoreApp

    package init(app: any KeyValueStoreApp) { self.app = app }

    /// The reason an engine names, as the notification's reason key; nil for one an app is not told of.
    static func reason(_ name: String) -> KeyValueStoreChange.Reason? {
        // A switch, not a dictionary: this runs for every notification of every device's app.
        switch name {
        case "serverChange": return .serverChange
        case "initialSyncChange": return .initialSyncChange
        case "quotaViolationChange": return .quotaViolationChange
        case "accountChange": return .accountChange
        default: return nil
        }
    }

    package mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot) -> KVSAppAnswer {
        var notes: [KVSAppPendingNote] = []
        let commands = handle(event, values: values, device: 0, notingReadsIn: &notes)
        return KVSAppAnswer(commands: commands, readList: notes.map { KVSAppRead(key: $0.note.key, write: $0.note.write) })
    }

    package mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot, device: Int32,
                                 notingReadsIn notes: inout [KVSAppPendingNote]) -> [KVSAppCommand] {
        // The platform's buffer lent to the store for the handler's run, and taken back after.
        var lent: [KVSAppPendingNote] = []
        swap(&lent, &notes)
        // Told of changed keys, the store expects them to be read in the notification's order,
        // which is the order the fetch applied them in (`KeyValueStore.object(forKey:)`).
        let changedKeys: Int
        if case .changedExternally(_, let keys) = event { changedKeys = keys.count } else { changedKeys = 0 }
        let store = KeyValueStore(snapshot: values, device: device, notes: consume lent, changedKeys: changedKeys)
        switch event {
        case .changedExternally(let reason, let keys):
            if let known = Self.reason(reason) {
                app.storeDidChangeExternally(KeyValueStoreChange(reason: known, changedKeys: keys), store: store)
            }
        case .userChanged(let keys):
            app.userDidChange(keys, store: store)
        }
        notes = store.takeNotes()
        return store.commands
    }
}
