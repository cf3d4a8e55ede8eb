package import SyncLabScenario

/// The apps a run can name in `apps` (SPEC §9), per store: the built-in apps, which are the
/// built-in policies (documents `lastWriterWins`, `keepVersions`, `keepBoth`, `merge`; records
/// `serverWins`, `clientWins`, `merge`; KVS `reader`, the app that only reads), and `default`,
/// the store's default app (the one the scenario's `engine` section chooses).
public struct AppRegistry: Sendable {
    /// The names each store's apps go by (for the command line in this package).
    package var names: AppNames

    /// The built-in apps only: what the `synclab` command line knows.
    public static let builtIn = AppRegistry(names: .builtIn)

    init(names: AppNames) { self.names = names }

    /// Names of the KVS apps this registry knows, `default` last.
    public var kvsApps: [String] { names.names(for: .kvs) }
    /// Names of the document apps this registry knows, `default` last.
    public var documentApps: [String] { names.names(for: .documents) }
    /// Names of the record apps this registry knows, `default` last.
    public var recordApps: [String] { names.names(for: .records) }
}
