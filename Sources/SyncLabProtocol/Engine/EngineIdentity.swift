/// Who an engine runs for: fixed for the life of the device.
public struct EngineIdentity: Hashable, Sendable {
    public var device: DeviceID
    /// The device's id in the scenario (`A`, `iPhone`): used where users see it (conflict copy
    /// names, merge markers).
    public var deviceName: String
    public var settings: EngineSettings
    public var limits: Limits
    public var environment: SchemaEnvironment
    /// The name of the team's own document app the device hosts (SPEC §9); nil: the built-in
    /// policy `settings.documents.conflict` runs in the engine.
    public var documentsApp: String?
    /// The name of the team's own records app the device hosts (SPEC §9); nil: the built-in
    /// record engine runs `settings.records.conflict`.
    public var recordsApp: String?

    public init(device: DeviceID, deviceName: String, settings: EngineSettings, limits: Limits, environment: SchemaEnvironment) {
        self.device = device; self.deviceName = deviceName; self.settings = settings; self.limits = limits; self.environment = environment
    }
}
