import SyncLabJSON
import SyncLabScenario
import SyncLabSimulation

/// The apps a fuzz campaign runs on every virtual device (SPEC §9, §10): a team's own apps, by
/// the names its registry gives them, or the built-in policies (the command line's default).
///
/// Each generated scenario gets `apps` naming them, so every seed, every shrink candidate and
/// every `minimal.json` runs the team's code; the files name the apps, and run through the
/// team's own executable (or `Scenario(text:apps:)` with the same registry) they reproduce.
public struct FuzzHost: Sendable {
    /// The names `apps` sections may use (checked like any scenario file's).
    public var names: AppNames
    /// How the platform makes each named app.
    public var factories: AppFactories
    /// The app each store runs, by name (`kvs`, `documents`, `records`); a store left out runs
    /// the profile's policy as the command line does.
    public var apps: [(store: String, name: String)]
    /// Runs the records policies as the built-in records apps on the platform instead of the
    /// engine's own (`synclab fuzz --host-records-policies`: comparing the two).
    public var hostRecordsPolicies = false

    public init(names: AppNames, factories: AppFactories, apps: [(store: String, name: String)]) {
        self.names = names; self.factories = factories; self.apps = apps
    }

    /// The built-in apps, chosen by the campaign's policies.
    public static let builtIn = FuzzHost(names: .builtIn, factories: AppFactories(), apps: [])

    /// `scenario` with this host's `apps` section (unchanged when it names none).
    func hosting(_ scenario: JSON) -> JSON {
        guard !apps.isEmpty else { return scenario }
        return scenario.setting("apps", .object(apps.map { ($0.store, JSON.string($0.name)) }))
    }

    /// The search's run options with this host's apps (no trace recorded).
    public var options: SimulationOptions {
        var options = SeedRunner.searchOptions
        options.apps = factories
        options.hostRecordsPolicies = hostRecordsPolicies
        return options
    }

    /// The scenario's `base` run, validated against this host's app names (nil: invalid).
    public func load(_ scenario: JSON) -> ScenarioRun? {
        guard case .success(let file) = ScenarioLoader.parse(text: ScenarioText.render(scenario), path: "minimal.json", apps: names) else { return nil }
        return file.runs.first
    }
}
