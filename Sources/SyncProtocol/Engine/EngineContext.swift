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

    public init(now: LocalInstant, random: SeededRandom) {
        self.now = now; self.random = random; self.actions = []
        actions.reserveCapacity(16)
    }

    @inlinable public mutating func emit(_ action: EngineAction) { actions.append(action) }
    @inlinable public mutating func observe(_ observation: Observation) { actions.append(.observe(observation)) }
}
