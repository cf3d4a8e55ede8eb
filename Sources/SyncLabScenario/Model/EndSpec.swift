import SyncLabKernel

/// How a run ends (SPEC §5 `end`).
public struct EndSpec: Hashable, Sendable {
    /// After the last step: restart crashed devices, bring everyone online, clear network and cloud
    /// faults, foreground every app. Default true.
    public var heal: Bool = true
    /// How long to run after the last step before judging. Default 1 h.
    public var settle: SimDuration = .seconds(3600)
    /// The runaway cap. Default 50 million events.
    public var maxEvents: Int = 50_000_000
    /// When the end phase begins (a SyncLab extension of SPEC §5): nil (the default) at the last
    /// step, else at this time or at the last step, whichever is later. A `World`'s replay file
    /// sets it to when `finish()` was called, which may be after its last op.
    public var at: SimInstant?
    public init() {}
}
