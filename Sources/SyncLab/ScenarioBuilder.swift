internal import SyncLabJSON

/// A scenario written in Swift, member for member the file format of SPEC §5: each property is
/// the top-level key of the same name, holding what a file would hold there. `Scenario(builder)`
/// writes it out as that file and validates it as one, so it gets the same checks and messages.
///
/// ```swift
/// var builder = ScenarioBuilder(name: "offline edit")
/// builder.apps = ["records": "merge"]
/// builder.device("A")
/// builder.device("B", ["clock": ["offset": "-2s"]])
/// builder.step(at: "10s", device: "A", op: "airplane.on")
/// builder.step(at: "20s", device: "A", op: "kvs.set", ["key": "theme", "value": "dark"])
/// builder.expect = ["converged": true, "lostUpdates": 0]
/// let scenario = try Scenario(builder)
/// ```
public struct ScenarioBuilder: Hashable, Sendable {
    /// `name`: the scenario's name (reports' folder names come from it).
    public var name: String
    /// `description`: free text shown in the reports.
    public var description: String?
    /// `seed`: the default seed (a run's `seed:` overrides it).
    public var seed: UInt64?
    /// `duration`: the latest time a step may have (`"1d"` by default).
    public var duration: String?
    /// `accounts`: the iCloud accounts (`["main"]` by default).
    public var accounts: [String]?
    /// `"development"` or `"production"`.
    public var environment: String?
    /// `schema`: deployed record types, `{"TYPE": {"FIELD": "KIND"}}`.
    public var schema: ScenarioObject?
    /// `limits`: the services' limits (SPEC §5), e.g. `["kvs": ["maxKeys": 1024]]`.
    public var limits: ScenarioObject?
    /// `network`: latency, loss, bandwidth for every device's link.
    public var network: ScenarioObject?
    /// `engine`: the built-in engines' settings, e.g. `["documents": ["conflict": "merge"]]`.
    public var engine: ScenarioObject?
    /// `apps`: the app per store (SPEC §9), `["records": "TodoApp"]`.
    public var apps: ScenarioObject?
    /// `devices`: each `{"id": …, "account"?, "clock"?, "network"?, "online"?, "apps"?}`.
    public var devices: [ScenarioObject] = []
    /// `steps`: each `{"at": …, "device": …, "op": …, arguments…}`.
    public var steps: [ScenarioObject] = []
    /// `end`: how the run ends (heal, settle limit).
    public var end: ScenarioObject?
    /// `expect`: what must hold at the end (`converged`, `lostUpdates`, `final`, `anomalies`…).
    public var expect: ScenarioObject?
    /// `variants`: each `{"name": …, "engine"?, "apps"?, "network"?, "limits"?, "expect"?}`.
    public var variants: [ScenarioObject] = []

    /// A scenario named `name` with nothing else yet (it needs at least one device).
    public init(name: String) { self.name = name }

    /// Adds a device: `id` plus the device's other keys (`["apps": ["records": "TodoApp"]]`).
    public mutating func device(_ id: String, _ settings: ScenarioObject = [:]) {
        devices.append(ScenarioObject(members: [ScenarioMember(key: "id", value: .string(id))] + settings.members))
    }

    /// Adds a step: at `time` (`"1.5s"`), on `device` (an id, or nil for `cloud.*` ops), the op
    /// `op` with its `arguments` as a file writes them.
    public mutating func step(at time: String, device: String?, op: String, _ arguments: ScenarioObject = [:]) {
        var members = [ScenarioMember(key: "at", value: .string(time))]
        if let device { members.append(ScenarioMember(key: "device", value: .string(device))) }
        members.append(ScenarioMember(key: "op", value: .string(op)))
        steps.append(ScenarioObject(members: members + arguments.members))
    }

    /// The scenario file this builder mirrors.
    public var file: ScenarioObject {
        var object: ScenarioObject = ["format": "synclab/1", "name": .string(name)]
        object["description"] = description.map { .string($0) }
        // A seed above Int64.max has no ScenarioValue; `jsonText` writes it unsigned.
        object["seed"] = seed.flatMap { Int64(exactly: $0) }.map { .integer($0) }
        object["duration"] = duration.map { .string($0) }
        object["accounts"] = accounts.map { .array($0.map { .string($0) }) }
        object["environment"] = environment.map { .string($0) }
        object["schema"] = schema.map { .object($0) }
        object["limits"] = limits.map { .object($0) }
        object["network"] = network.map { .object($0) }
        object["engine"] = engine.map { .object($0) }
        object["apps"] = apps.map { .object($0) }
        object["devices"] = .array(devices.map { .object($0) })
        if !steps.isEmpty { object["steps"] = .array(steps.map { .object($0) }) }
        object["end"] = end.map { .object($0) }
        object["expect"] = expect.map { .object($0) }
        if !variants.isEmpty { object["variants"] = .array(variants.map { .object($0) }) }
        return object
    }

    /// The scenario file's text (JSON, one line).
    public var jsonText: String {
        var members = file.members.map { ($0.key, $0.value.json) }
        if let seed, Int64(exactly: seed) == nil { members.insert(("seed", .uint(seed)), at: 2) }
        return JSON.object(members).rendered()
    }
}
