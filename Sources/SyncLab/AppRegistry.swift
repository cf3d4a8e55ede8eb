package import SyncLabScenario
package import SyncLabSimulation
internal import SyncLabProtocol

/// The apps a run can name in `apps` (SPEC §9), per store: the built-in apps, which are the
/// built-in policies (documents `lastWriterWins`, `keepVersions`, `keepBoth`, `merge`; records
/// `serverWins`, `clientWins`, `merge`; KVS `reader`, the app that only reads), and `default`,
/// the store's default app (the one the scenario's `engine` section chooses). The documents and
/// KVS built-ins are apps on the public API (`LastWriterWinsApp`, `KeepVersionsApp`,
/// `KeepBothApp`, `MergeApp`, `KVSReaderApp`): register one under a name of yours to wrap it.
/// The records policies as apps on the public API are known by their type names
/// (`ServerWinsRecordsApp`, `ClientWinsRecordsApp`, `MergeRecordsApp`); the policy names still
/// run the engine's policies until the apps match them (docs/LIBRARY.md).
public struct AppRegistry: Sendable {
    /// The names each store's apps go by (for the command line in this package).
    package var names: AppNames
    /// How the platform makes the team's apps (for the simulator and the command line).
    package var factories = AppFactories()

    /// How the executable that runs this registry's apps is started (SPEC §9: a team runs its
    /// apps from the CLI through a tiny executable of its own that calls
    /// `SyncLabCommandLine.main(_:apps:)` with this registry), e.g. `swift run todos-sim`; pasted
    /// as it is at the start of the replay line of every run that uses a team app. A run of
    /// built-in apps only replays with `swift run synclab` whatever this says.
    ///
    /// nil (the default): the command line says `swift run NAME`, NAME its executable's file
    /// name; `RunResult` (and so the SyncLabTesting issues), which cannot know it, say
    /// `unnamedProgram`, for the reader to replace.
    public var program: String?

    /// The replay lines' program for a run of a team's apps when `program` is nil, outside the
    /// command line: a visible placeholder, not a guess that would run something else.
    public static let unnamedProgram = "swift run YOUR-SYNCLAB-EXECUTABLE"

    /// The built-in apps only: what the `synclab` command line knows.
    public static let builtIn = AppRegistry(names: .builtIn)

    init(names: AppNames) { self.names = names }

    /// Adds a team's KVS app under `name`, made by `make` at each launch of the app on a device.
    /// - Throws: when `name` is empty, `default`, or already known for KVS.
    public mutating func register(kvs name: String, _ make: @escaping @Sendable () -> any KeyValueStoreApp) throws(ScenarioLoadError) {
        try checkFree(name, .kvs)
        names.kvs.append(name)
        factories.kvs[name] = { HostedKeyValueStoreApp(app: make()) }
    }

    /// Adds a team's document app under `name`, made by `make` at each launch of the app on a device.
    /// - Throws: when `name` is empty, `default`, or already known for documents.
    public mutating func register(documents name: String, _ make: @escaping @Sendable () -> any DocumentsApp) throws(ScenarioLoadError) {
        try checkFree(name, .documents)
        names.documents.append(name)
        factories.documents[name] = { hostDocumentsApp(make()) }
    }

    /// Adds a team's records app (a CKSyncEngine delegate with its local database) under `name`.
    /// The device makes it at each launch from what it persisted (`App.init(disk:)`).
    /// - Throws: when `name` is empty, `default`, or already known for records (built-ins included).
    public mutating func register<App: RecordsApp>(records name: String, _ app: App.Type) throws(ScenarioLoadError) {
        try checkFree(name, .records)
        names.records.append(name)
        factories.records[name] = { disk in HostedRecordsApp<App>(disk: disk) }
    }

    /// Throws unless `name` is free for `store`.
    func checkFree(_ name: String, _ store: Store) throws(ScenarioLoadError) {
        guard name.isEmpty || names.names(for: store).contains(name) else { return }
        let known = names.names(for: store).map { "\"\($0)\"" }.joined(separator: ", ")
        throw ScenarioLoadError(problem: ScenarioProblem(file: "AppRegistry", path: store.rawValue,
                                                         message: "can't register a \(store.rawValue) app named \"\(name)\": the name is empty or taken (known: \(known))"))
    }

    /// Names of the KVS apps this registry knows, `default` last.
    public var kvsApps: [String] { names.names(for: .kvs) }
    /// Names of the document apps this registry knows, `default` last.
    public var documentApps: [String] { names.names(for: .documents) }
    /// Names of the record apps this registry knows, `default` last.
    public var recordApps: [String] { names.names(for: .records) }
}
