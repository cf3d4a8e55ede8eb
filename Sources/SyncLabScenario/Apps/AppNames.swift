import SyncLabProtocol

/// The app names a scenario may use under `apps`, per store (SPEC §9): the built-in apps, plus
/// the names of a team's own apps when a registry of them is given.
///
/// `default` is always known: it names the store's default app, the one the scenario's `engine`
/// section chooses (`engine.documents.conflict`, `engine.records.conflict`; KVS `reader`).
public struct AppNames: Hashable, Sendable {
    /// Names of KVS apps, built-ins first.
    public var kvs: [String]
    /// Names of document apps, built-ins first.
    public var documents: [String]
    /// Names of record apps, built-ins first.
    public var records: [String]

    /// The name that means "the store's default app".
    public static let defaultName = "default"
    /// The built-in KVS app: it only reads (it writes what the user does, and nothing on its own).
    public static let kvsReader = "reader"

    /// The built-in records apps on the public app API (SyncLabApps' `ServerWinsRecordsApp`,
    /// `ClientWinsRecordsApp`, `MergeRecordsApp`), by their type names, in the order of
    /// `RecordConflictPolicy.allCases`. The policy names (`serverWins`…) still run the engine's
    /// built-in policies until the apps match them (docs/HOSTING.md lists what differs).
    public static let builtInRecordsApps = ["ServerWinsRecordsApp", "ClientWinsRecordsApp", "MergeRecordsApp"]

    /// The built-in apps only: what the `synclab` command line knows.
    public static let builtIn = AppNames(
        kvs: [kvsReader],
        documents: DocumentConflictPolicy.allCases.map(\.rawValue),
        records: RecordConflictPolicy.allCases.map(\.rawValue) + builtInRecordsApps)

    public init(kvs: [String], documents: [String], records: [String]) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }

    /// The names known for `store`, `default` last.
    public func names(for store: Store) -> [String] {
        switch store {
        case .kvs: return kvs + [AppNames.defaultName]
        case .documents: return documents + [AppNames.defaultName]
        case .records: return records + [AppNames.defaultName]
        }
    }

    /// These names plus `other`'s, each once, in order.
    public func adding(_ other: AppNames) -> AppNames {
        func union(_ first: [String], _ second: [String]) -> [String] { first + second.filter { !first.contains($0) } }
        return AppNames(kvs: union(kvs, other.kvs), documents: union(documents, other.documents), records: union(records, other.records))
    }
}
