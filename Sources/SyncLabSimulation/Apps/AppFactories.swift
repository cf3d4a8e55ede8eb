/// How a run makes the apps its devices host, by the name scenario files give them (SPEC §9).
/// A store whose app has no factory here runs the built-in app of that name (the engine's own
/// policy; the KVS `reader` does nothing on changes).
public struct AppFactories: Sendable {
    /// KVS app name → a new instance (at install, and at restart after a crash: an app's
    /// memory does not survive a crash, the store does).
    public var kvs: [String: @Sendable () -> any KVSAppHosting]
    /// Document app name → a new instance (likewise made at each launch).
    public var documents: [String: @Sendable () -> any DocumentsAppHosting]
    public init(kvs: [String: @Sendable () -> any KVSAppHosting] = [:], documents: [String: @Sendable () -> any DocumentsAppHosting] = [:]) {
        self.kvs = kvs; self.documents = documents
    }
}
