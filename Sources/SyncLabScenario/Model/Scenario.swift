import SyncLabKernel
import SyncLabProtocol

/// A scenario file, parsed and validated: one `ScenarioRun` per variant (`base` first).
public struct ScenarioFile: Sendable {
    /// The path as given on the command line.
    public var path: String
    public var name: String
    public var description: String
    public var runs: [ScenarioRun]
    public init(path: String, name: String, description: String, runs: [ScenarioRun]) {
        self.path = path; self.name = name; self.description = description; self.runs = runs
    }
}

/// One fully resolved run of a scenario: the base scenario, or a variant with its overrides merged.
public struct ScenarioRun: Sendable {
    public var scenarioName: String
    public var description: String
    /// `base`, or the variant's name.
    public var variant: String
    public var seed: UInt64
    /// The latest time a step may have.
    public var duration: SimDuration
    /// Account names; index = `AccountID.index`. At least one (`main` by default).
    public var accounts: [String]
    public var environment: SchemaEnvironment
    /// Record types deployed before the run (`schema`, a SyncLab extension of SPEC §5).
    public var schema: [RecordTypeSchema]
    public var limits: Limits
    public var engine: EngineSettings
    /// The network defaults (after the variant's overrides); devices carry their resolved links.
    public var network: LinkSettings
    public var devices: [DeviceSpec]
    /// Expanded (`every`/`times`, device lists, `*`) and sorted by (time, file order).
    public var steps: [Step]
    public var end: EndSpec
    public var expect: Expectations

    public init(scenarioName: String, description: String, variant: String, seed: UInt64, duration: SimDuration,
                accounts: [String], environment: SchemaEnvironment, limits: Limits, engine: EngineSettings,
                network: LinkSettings, devices: [DeviceSpec], steps: [Step], end: EndSpec, expect: Expectations,
                schema: [RecordTypeSchema] = []) {
        self.scenarioName = scenarioName; self.description = description; self.variant = variant; self.seed = seed
        self.duration = duration; self.accounts = accounts; self.environment = environment; self.limits = limits
        self.engine = engine; self.network = network; self.devices = devices; self.steps = steps; self.end = end
        self.expect = expect; self.schema = schema
    }
}
