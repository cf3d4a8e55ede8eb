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

    public init(id: String, account: Int = 0, clockOffset: SimDuration = .zero, driftPpm: Double = 0, link: LinkSettings = LinkSettings(), online: Bool = true) {
        self.id = id; self.account = account; self.clockOffset = clockOffset; self.driftPpm = driftPpm; self.link = link; self.online = online
    }
}
