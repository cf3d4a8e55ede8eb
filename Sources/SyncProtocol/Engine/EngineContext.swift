import SimKernel

/// Everything an engine is given for one step and everything it hands back.
///
/// The host fills `now` (the device's local clock) and keeps `random` (the device's engine
/// sub-stream) across steps; the engine appends to `actions`, which the host drains and clears
/// (keeping capacity, so steady state allocates nothing for the buffer).
public struct EngineContext: Sendable {
    /// The device's local clock reading at this step.
    public var now: LocalInstant
    /// The engine's randomness (upload jitter). Owned by the host so it survives a crash.
    public var random: SeededRandom
    /// Actions for the host, in order.
    public var actions: [EngineAction]
    /// Whether the host keeps trace lines; when false, `log` builds nothing (benchmarks).
    public var tracing: Bool = true
    /// Whether the host keeps observations for the checker; when false, `observe` builds nothing
    /// (benchmarks that skip the checker).
    public var observing: Bool = true

    public init(now: LocalInstant, random: SeededRandom) {
        // No reserve here: the host swaps in its own reused buffer, so this array never allocates.
        self.now = now; self.random = random; self.actions = []
    }

    @inlinable public mutating func emit(_ action: EngineAction) { actions.append(action) }
    @inlinable public mutating func observe(_ observation: @autoclosure () -> Observation) {
        if observing { actions.append(.observe(observation())) }
    }
    /// A trace line; its details are only built when the host is tracing.
    @inlinable public mutating func log(_ event: String, _ details: @autoclosure () -> [(String, String)]) {
        if tracing { actions.append(.log(event: event, details: details())) }
    }
}
