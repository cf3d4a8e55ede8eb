/// How big a scenario is, as shrinking reports it (SPEC §10): devices, steps (expanded), events run.
public struct ScenarioSize: Sendable, Equatable {
    public var devices: Int
    public var steps: Int
    public var events: Int

    public var summary: String { "\(devices) devices, \(steps) steps, \(events) events" }
}
