import SyncProtocol

/// The fixed settings of the cloud for one run.
public struct CloudConfiguration: Hashable, Sendable {
    /// How many accounts the scenario declares (`accounts`, default one: `main`).
    public var accountCount: Int
    public var limits: Limits
    public var settings: EngineSettings
    public var environment: SchemaEnvironment

    public init(accountCount: Int, limits: Limits, settings: EngineSettings, environment: SchemaEnvironment) {
        self.accountCount = accountCount; self.limits = limits; self.settings = settings; self.environment = environment
    }
}
