import SyncLabEngines
/// How a run makes the apps its devices host, by the name scenario files give them (SPEC §9).
/// A store whose app has no factory here runs the built-in app of that name (SyncLabApps'
/// `BuiltInApps`: the documents policies, the KVS `reader` that only reads).
public struct AppFactories: Sendable {
    /// KVS app name → a new instance (at install, and at restart after a crash: an app's
    /// memory does not survive a crash, the store does).
    public var kvs: [String: @Sendable () -> any KVSAppHosting]
    /// Document app name → a new instance (likewise made at each launch).
    public var documents: [String: @Sendable () -> any DocumentsAppHosting]
    /// Records app name → a new instance made from what the app persisted (nil at install):
    /// made at each launch, like the others, from the app's disk.
    public var records: [String: @Sendable ((any Sendable)?) -> any SyncEngineAppHosting]
    public init(kvs: [String: @Sendable () -> any KVSAppHosting] = [:], documents: [String: @Sendable () -> any DocumentsAppHosting] = [:],
                records: [String: @Sendable ((any Sendable)?) -> any SyncEngineAppHosting] = [:]) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }
}
