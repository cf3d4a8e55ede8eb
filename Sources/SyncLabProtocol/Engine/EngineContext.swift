import SyncLabKernel

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
    /// The details of the typed trace lines among `actions`, in order: a `.logFields(i)` action
    /// is `logs[i]`. Drained and cleared with `actions` (the host swaps in a reused buffer).
    public var logs: [LogFields] = []
    /// Whether the host keeps trace lines; when false, `log` builds nothing (benchmarks).
    public var tracing: Bool = true
    /// Whether the host keeps observations for the checker; when false, `observe` builds nothing
    /// (benchmarks that skip the checker).
    public var observing: Bool = true
    /// Whether `observe` keeps observations in `observations` with an `.observed(i)` action in
    /// `actions`, rather than boxed in an `.observe` action. Off by default (tests read `.observe`).
    public var observationsApart: Bool = false
    /// The observations of the `.observed(i)` actions, in order (`observationsApart`). Drained and
    /// cleared with `actions` (the host swaps in a reused buffer).
    public var observations: [Observation] = []
    /// The writes the device's engines have made on their own so far (merges, conflict copies),
    /// across every store and every install of the app. Owned by the host, like `random`, so an
    /// engine-made write id is never given twice on one device: not by two stores, not after a
    /// reinstall that started the engines afresh.
    public var derivedWrites: UInt32 = 0
    /// A buffer the host lends for the keys of a notification, empty (its capacity kept): an
    /// engine that lists keys takes it (`takeKeysBuffer()`) instead of allocating an array, and
    /// the host gets it back once the notification is told. Empty by default: the engine
    /// allocates, as before.
    public var keysBuffer: [String] = []

    public init(now: LocalInstant, random: SeededRandom) {
        // No reserve here: the host swaps in its own reused buffer, so this array never allocates.
        self.now = now; self.random = random; self.actions = []
    }

    @inlinable public mutating func emit(_ action: EngineAction) { actions.append(action) }
    /// The host's keys buffer (see `keysBuffer`), emptied, moved out of the context.
    @inlinable public mutating func takeKeysBuffer() -> [String] {
        var keys: [String] = []
        swap(&keys, &keysBuffer)
        keys.removeAll(keepingCapacity: true)
        return keys
    }
    /// A new id for a write the engine makes on its own (`DEVICE:mN`).
    @inlinable public mutating func nextDerivedWrite(on device: DeviceID) -> WriteID {
        derivedWrites += 1
        return WriteID(device: device, sequence: derivedWrites, derived: true)
    }
    @inlinable public mutating func observe(_ observation: @autoclosure () -> Observation) {
        guard observing else { return }
        if observationsApart {
            actions.append(.observed(observations.count))
            observations.append(observation())
        } else {
            actions.append(.observe(observation()))
        }
    }
    /// A trace line; its details are only built when the host is tracing.
    @inlinable public mutating func log(_ event: String, _ details: @autoclosure () -> [(String, String)]) {
        if tracing { actions.append(.log(event: event, details: details())) }
    }
    /// A trace line with typed details, built only when the host is tracing: no array, no strings.
    @inlinable public mutating func log(_ fields: @autoclosure () -> LogFields) {
        if tracing {
            actions.append(.logFields(logs.count))
            logs.append(fields())
        }
    }
}
