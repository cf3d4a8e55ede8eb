import SyncLabProtocol

/// The app each store of one device runs, resolved: never `default`, always a name the run's
/// registry knows (a built-in's name is its policy's name).
public struct DeviceApps: Hashable, Sendable {
    public var kvs: String
    public var documents: String
    public var records: String

    public init(kvs: String, documents: String, records: String) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }

    /// The default apps under `engine`: KVS `reader`, the documents and records conflict policies.
    public init(defaultsFor engine: EngineSettings) {
        self.init(kvs: AppNames.kvsReader, documents: engine.documents.conflict.rawValue, records: engine.records.conflict.rawValue)
    }

    /// The apps `selection` names over the defaults of `engine` (`default` and nil keep the default).
    public init(_ selection: AppSelection, engine: EngineSettings) {
        self.init(defaultsFor: engine)
        func pick(_ name: String?, _ fallback: String) -> String {
            guard let name, name != AppNames.defaultName else { return fallback }
            return name
        }
        kvs = pick(selection.kvs, kvs)
        documents = pick(selection.documents, documents)
        records = pick(selection.records, records)
    }

    /// The app name for `store`.
    public subscript(store: Store) -> String {
        switch store {
        case .kvs: return kvs
        case .documents: return documents
        case .records: return records
        }
    }

    /// `engine` with the conflict policies of the built-in apps this device runs. A store whose
    /// app is not a built-in keeps `engine`'s policy (the app, not the policy, decides there).
    public func applied(to engine: EngineSettings) -> EngineSettings {
        var settings = engine
        if let policy = DocumentConflictPolicy(rawValue: documents) { settings.documents.conflict = policy }
        if let policy = RecordConflictPolicy(rawValue: records) { settings.records.conflict = policy }
        return settings
    }
}
