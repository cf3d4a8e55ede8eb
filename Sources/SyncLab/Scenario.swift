import Foundation
internal import SyncLabKernel
internal import SyncLabScenario
internal import SyncLabSimulation
internal import SyncLabRunner

/// A validated scenario (SPEC §5): read from a file, from text, or built in Swift with a
/// `ScenarioBuilder`. Each is validated the same way, with the same messages; a scenario with
/// any problem never exists (nothing runs half).
public struct Scenario: Sendable {
    let file: ScenarioFile
    /// The scenario's text when it was built in Swift or given as text: reports save it beside
    /// themselves, so the replay line names a file that exists.
    let text: String?
    let registry: AppRegistry

    /// The scenario's `name`.
    public var name: String { file.name }
    /// The file as given (`(builder)` for one built in Swift).
    public var path: String { file.path }
    /// `base` and the variants' names, in file order.
    public var variants: [String] { file.runs.map(\.variant) }

    /// Reads and validates the scenario file at `path`.
    /// - Parameter apps: the apps `apps` sections may name (the built-ins by default).
    /// - Throws: every problem of the file, with line, column and JSON path.
    public init(contentsOfFile path: String, apps: AppRegistry = .builtIn) throws(ScenarioLoadError) {
        switch ScenarioLoader.load(path: path, apps: apps.names) {
        case .success(let file): self.init(file: file, text: nil, registry: apps)
        case .failure(let errors): throw ScenarioLoadError(errors)
        }
    }

    /// Validates scenario text (JSON5, as in a file); `path` names it in messages and replay lines.
    public init(text: String, path: String = "scenario.json", apps: AppRegistry = .builtIn) throws(ScenarioLoadError) {
        switch ScenarioLoader.parse(text: text, path: path, apps: apps.names) {
        case .success(let file): self.init(file: file, text: text, registry: apps)
        case .failure(let errors): throw ScenarioLoadError(errors)
        }
    }

    /// Validates a scenario built in Swift: it is written out as the file it mirrors and read
    /// back, so it gets exactly a file's validation and messages (file `(builder)`).
    /// Its problems name no line and column: they were places in the one-line text the builder
    /// wrote, which the caller never sees (the JSON path says where).
    public init(_ builder: ScenarioBuilder, apps: AppRegistry = .builtIn) throws(ScenarioLoadError) {
        switch ScenarioLoader.parse(text: builder.jsonText, path: "(builder)", apps: apps.names) {
        case .success(let file): self.init(file: file, text: builder.jsonText, registry: apps)
        case .failure(let errors):
            throw ScenarioLoadError(ScenarioErrors(errors: errors.errors.map { ScenarioError(file: $0.file, position: nil, path: $0.path, message: $0.message) }))
        }
    }

    init(file: ScenarioFile, text: String?, registry: AppRegistry) {
        self.file = file; self.text = text; self.registry = registry
    }

    /// The resolved run of `variant`, with `seed` instead of the scenario's when given.
    func resolvedRun(variant: String, seed: UInt64?) throws(ScenarioLoadError) -> ScenarioRun {
        guard var run = file.runs.first(where: { $0.variant == variant }) else {
            let names = variants.joined(separator: ", ")
            throw ScenarioLoadError(problem: ScenarioProblem(file: path, path: "variants", message: "no variant named \"\(variant)\" (it has: \(names))"))
        }
        if let seed { run.seed = seed }
        return run
    }

    /// How runs of this scenario host the registry's apps.
    var options: SimulationOptions {
        var options = SimulationOptions()
        options.apps = registry.factories
        return options
    }

    /// Runs one variant to its end (steps, heal, settle) and judges it.
    /// - Parameters:
    ///   - variant: `base` (the scenario as written) or a variant's name.
    ///   - seed: replaces the scenario's seed when given.
    /// - Throws: when there is no such variant.
    public func run(variant: String = "base", seed: UInt64? = nil) throws(ScenarioLoadError) -> RunResult {
        let run = try resolvedRun(variant: variant, seed: seed)
        return RunResult(ScenarioRunner.run(run, options: options), scenario: self)
    }

    /// Runs every variant (`base` first), each with `seed` when given.
    public func runAll(seed: UInt64? = nil) -> [RunResult] {
        file.runs.map { run in
            var run = run
            if let seed { run.seed = seed }
            return RunResult(ScenarioRunner.run(run, options: options), scenario: self)
        }
    }
}

extension ScenarioProblem {
    init(file: String, path: String, message: String) {
        self.init(ScenarioError(file: file, position: nil, path: path, message: message))
    }
}
