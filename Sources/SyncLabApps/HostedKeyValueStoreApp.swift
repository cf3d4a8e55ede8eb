package import SyncLabEngines
internal import SyncLabProtocol

/// Adapts a `KeyValueStoreApp` (a team's, or the built-in `reader`) to the platform's hosting protocol.
package struct HostedKeyValueStoreApp: KVSAppHosting {
    var app: any KeyValueStoreApp
    /// The last answer's list of reads, kept for its storage: by the next notification the
    /// platform has dropped that answer, so the list is this adapter's alone and is emptied in
    /// place instead of allocated anew. (Were it still shared, emptying it would allocate: slower,
    /// never wrong.)
    private var readsStorage: [KVSAppRead] = []

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
        var reads: [KVSAppRead] = []
        swap(&reads, &readsStorage)
        // Emptied from the end, one read at a time: `removeAll(keepingCapacity:)` destroyed the
        // reads through the generic array destroy (about 170 instructions a notification, for one
        // or two reads); `removeLast` is specialized to a release each.
        while !reads.isEmpty { reads.removeLast() }
        let store = KeyValueStore(snapshot: values, reads: consume reads)
        switch event {
        case .changedExternally(let reason, let keys):
            guard let known = Self.reason(reason) else { return KVSAppAnswer() }
            app.storeDidChangeExternally(KeyValueStoreChange(reason: known, changedKeys: keys), store: store)
        case .userChanged(let keys):
            app.userDidChange(keys, store: store)
        }
        readsStorage = store.takeReads()
        return KVSAppAnswer(commands: store.commands, readList: readsStorage)
    }
}
