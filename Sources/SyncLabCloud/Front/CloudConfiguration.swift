import SyncLabProtocol

/// The fixed settings of the cloud for one run.
public struct CloudConfiguration: Hashable, Sendable {
    /// How many accounts the scenario declares (`accounts`, default one: `main`).
    public var accountCount: Int
    public var limits: Limits
    public var settings: EngineSettings
    public var environment: SchemaEnvironment
    /// Record types deployed before the run (the scenario's `schema`).
    public var schema: [RecordTypeSchema]

    public init(accountCount: Int, limits: Limits, settings: EngineSettings, environment: SchemaEnvironment, schema: [RecordTypeSchema] = []) {
        self.accountCount = accountCount; self.limits = limits; self.settings = settings; self.environment = environment
        self.schema = schema
    }
}
