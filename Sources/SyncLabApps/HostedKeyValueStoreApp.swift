package import SyncLabEngines

/// Adapts a `KeyValueStoreApp` (a team's, or the built-in `reader`) to the platform's hosting protocol.
package struct HostedKeyValueStoreApp: KVSAppHosting {
    var app: any KeyValueStoreApp

    package init(app: any KeyValueStoreApp) { self.app = app }

    static let reasons: [String: KeyValueStoreChange.Reason] = ["serverChange": .serverChange, "initialSyncChange": .initialSyncChange,
                                                                "quotaViolationChange": .quotaViolationChange, "accountChange": .accountChange]

    package mutating func handle(_ event: KVSAppEvent, values: KVSAppSnapshot) -> KVSAppAnswer {
        let store = KeyValueStore(snapshot: values)
        switch event {
        case .changedExternally(let reason, let keys):
            guard let known = Self.reasons[reason] else { return KVSAppAnswer() }
            app.storeDidChangeExternally(KeyValueStoreChange(reason: known, changedKeys: keys), store: store)
        case .userChanged(let keys):
            app.userDidChange(keys, store: store)
        }
        return KVSAppAnswer(commands: store.commands, reads: store.reads)
    }
}
