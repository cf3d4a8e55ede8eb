import SyncLabKernel

/// One device as the scenario declares it.
public struct DeviceSpec: Hashable, Sendable {
    /// The id users write (`A`, `iPhone`).
    public var id: String
    /// Index into `ScenarioRun.accounts`.
    public var account: Int
    /// Local clock = true time + offset + driftPpm × true / 1e6.
    public var clockOffset: SimDuration
    public var driftPpm: Double
    /// The link after the scenario's defaults, the variant's and the device's overrides.
    public var link: LinkSettings
    /// False: starts in airplane mode.
    public var online: Bool
    /// The apps named for this device (SPEC §9): its own `apps` over the run's (top level, then
    /// the variant's). Nothing named: the `engine` section's policies decide.
    public var apps: AppSelection

    public init(id: String, account: Int = 0, clockOffset: SimDuration = .zero, driftPpm: Double = 0, link: LinkSettings = LinkSettings(), online: Bool = true, apps: AppSelection = AppSelection()) {
        self.id = id; self.account = account; self.clockOffset = clockOffset; self.driftPpm = driftPpm; self.link = link; self.online = online; self.apps = apps
    }
}
