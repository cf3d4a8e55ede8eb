internal import SyncLabKernel
internal import SyncLabProtocol
internal import SyncLabScenario
internal import SyncLabSimulation
internal import SyncLabRunner
internal import SyncLabJSON

/// A run you drive step by step, in the style of swift-nio's `EmbeddedChannel`: act on devices
/// (user ops, airplane mode, crashes…), move virtual time with `advance(by:)` or
/// `runUntilQuiescent()`, read what each device shows and what the checker thinks so far.
/// Nothing happens between calls; the same scenario, seed and calls give the same run.
///
/// ```swift
/// let world = try World(devices: ["iPhone", "iPad"], apps: ["records": "merge"])
/// try world.device("iPhone").airplane(true)
/// try world.device("iPhone").recordSave(zone: "Todos", type: "Todo", name: "milk", fields: ["done": 1])
/// world.advance(by: .seconds(30))
/// try world.device("iPhone").airplane(false)
/// world.runUntilQuiescent()
/// #expect(world.anomalies.isEmpty)
/// ```
public final class World {
    var simulator: Simulator
    let run: ScenarioRun
    let scenario: Scenario
    /// Ops performed so far: names them in the trace (`world[N]`).
    var performed = 0
    /// The result `finish()` returned: set once the run is over, when the world takes no more acts.
    var finishedResult: RunResult?
    /// A call that could not throw (`advance(by:)`, `runUntilQuiescent(limit:)`, which stay
    /// non-throwing for source compatibility) and was refused: thrown by the next act, so the
    /// mistake is not lost silently.
    var refusal: ScenarioProblem?
    /// The ops performed, as a scenario file: what results save as `scenario.json` for their replay line.
    var replayFile: WorldReplayFile
    /// The time of the last event handled, nil before any: an op at that very time would run
    /// after it, where a file's step written for that time runs before it.
    var lastHandled: SimInstant?
    /// Where the heal goes in the event order: after the scenario's steps, before the events
    /// due at its time, as in a file's run.
    let healSequence: UInt64

    /// A world running `variant` of `scenario` (its own steps are scheduled too), at time zero
    /// with every device launched.
    /// - Throws: when there is no such variant.
    public init(_ scenario: Scenario, variant: String = "base", seed: UInt64? = nil) throws(ScenarioLoadError) {
        self.scenario = scenario
        run = try scenario.resolvedRun(variant: variant, seed: seed)
        simulator = Simulator(run: run, options: scenario.options)
        replayFile = WorldReplayFile(text: scenario.text, path: scenario.path)
        simulator.start()
        healSequence = simulator.reserveHealSequence()
        // Launches happen at time zero: run them, so devices are up before the first act. (An
        // op at time zero still runs there: what the launches set off is due later.)
        simulator.run(until: .start)
    }

    /// A world of these devices (ids), no steps, the `apps` per store (`["records": "merge"]`).
    /// - Parameters:
    ///   - apps: the app each store runs, by name, as a file's `apps` section (the names only;
    ///     what `FuzzCampaign` calls `use`).
    ///   - registry: where those names come from: `.builtIn`, or the registry your own apps are
    ///     registered in (what `Scenario(_:apps:)` and `FuzzCampaign` call `apps`).
    ///   - name: the scenario's name, in reports and in the default reports folder of the
    ///     Swift Testing helpers (`.build/synclab/<name>/<variant>`): by default the function
    ///     that made the world (`milkSyncs` for `func milkSyncs()`), so that two tests' worlds,
    ///     run in parallel, do not write their reports (and the `scenario.json` their replay
    ///     lines name) into one folder, as they did when every world was named `world`.
    /// - Throws: an unknown app name or a bad device id, as a file would.
    public convenience init(devices: [String], apps: ScenarioObject = [:], seed: UInt64 = 1, registry: AppRegistry = .builtIn,
                            name: String = #function) throws(ScenarioLoadError) {
        let function = String(name.prefix { $0 != "(" })
        var builder = ScenarioBuilder(name: function.isEmpty ? "world" : function)
        builder.seed = seed
        if !apps.members.isEmpty { builder.apps = apps }
        for id in devices { builder.device(id) }
        try self.init(Scenario(builder, apps: registry))
    }

    /// True time since the run began.
    public var now: Duration { .microseconds(simulator.currentTime.microseconds) }

    /// True when nothing is in flight and no device's engine has work it could send now.
    public var isQuiescent: Bool { simulator.quiescent }

    /// The device with this id (as declared). Acting on an unknown id throws.
    public func device(_ id: String) -> WorldDevice { WorldDevice(world: self, id: id) }

    /// True once `finish()` was called: the run is over and the world takes no more acts.
    public var isFinished: Bool { finishedResult != nil }

    /// Moves virtual time on by `duration`, handling every event due meanwhile.
    ///
    /// Refused, moving no time, after `finish()` or with a negative `duration` (time does not go
    /// back): the next act on the world (`perform`, any device op) then throws that refusal.
    /// It does not throw itself so that existing calls written without `try` still compile.
    public func advance(by duration: Duration) {
        guard accepts(duration, call: "advance(by:)") else { return }
        simulator.run(until: simulator.currentTime + SimDuration(duration), lastHandled: &lastHandled)
    }

    /// Handles events until nothing is in flight and no engine has work to send, or until
    /// `limit` of virtual time passes (periodic timers never stop; quiescence does not wait for them).
    /// Refused like `advance(by:)` after `finish()` or with a negative `limit`.
    /// - Returns: true if quiescent.
    @discardableResult
    public func runUntilQuiescent(limit: Duration = .seconds(3600)) -> Bool {
        guard accepts(limit, call: "runUntilQuiescent(limit:)") else { return simulator.quiescent }
        simulator.run(until: simulator.currentTime + SimDuration(limit), untilQuiescent: true, lastHandled: &lastHandled)
        return simulator.quiescent
    }

    /// Whether a time-moving call may run; if not, remembers why (the first refusal) for the next act.
    private func accepts(_ duration: Duration, call: String) -> Bool {
        let problem: ScenarioProblem
        if let finished = finishedProblem(call: call) {
            problem = finished
        } else if duration < .zero {
            problem = ScenarioProblem(file: "World", path: "world",
                message: "\(call) was given a negative duration (\(duration)) at t=\(now): time does not go back; nothing ran")
        } else {
            return true
        }
        if refusal == nil { refusal = problem }
        return false
    }

    /// The problem of acting on a finished world, or nil while it runs.
    private func finishedProblem(call: String) -> ScenarioProblem? {
        guard isFinished else { return nil }
        return ScenarioProblem(file: "World", path: "world",
            message: "\(call) after finish(): the run is over (finished at t=\(now)); make a new World to run again")
    }

    /// Runs any op now, written as a file's step without `at` (`["op": "cloud.outage", "for": "30s"]`),
    /// validated as one. To act later, `advance(by:)` first.
    /// - Throws: the step's problems (nothing runs then), an `at` among them: a world's op runs
    ///   now, and an `at` would otherwise be dropped without a word.
    ///   After `finish()`, or after a refused `advance(by:)` / `runUntilQuiescent(limit:)`
    ///   (thrown once, by the next act), it throws and runs nothing.
    public func perform(_ step: ScenarioObject) throws(ScenarioLoadError) {
        if let problem = refusal ?? finishedProblem(call: "an op") {
            refusal = nil
            throw ScenarioLoadError(problem: problem)
        }
        if step["at"] != nil {
            throw ScenarioLoadError(problem: ScenarioProblem(file: "World", path: "world.at",
                message: "a World op runs now (t=\(now)): remove \"at\", and call advance(by:) first to act later"))
        }
        var object = step
        object["at"] = "0s"
        let source = "world[\(performed)]"
        switch ScenarioLoader.step(bytes: Array(ScenarioValue.object(object).jsonText.utf8), for: run, file: "World", path: "world",
                                   crashedSince: simulator.crashedSince) {
        case .success(let resolved):
            standWhereAStepWouldRun()
            replayFile.record(step, at: simulator.currentTime)
            performed += 1
            var step = resolved
            step.source = source
            simulator.perform(step)
        case .failure(let errors):
            // Name the op as the trace does (`world[N]`, N ops performed before it), and give no
            // line and column: they were those of the one-line text the world wrote, not the caller's.
            let first = "world[0]"
            throw ScenarioLoadError(ScenarioErrors(errors: errors.errors.map {
                ScenarioError(file: $0.file, position: nil, path: $0.path.hasPrefix(first) ? source + $0.path.dropFirst(first.count) : $0.path, message: $0.message)
            }))
        }
    }

    /// The checker's verdict on the run as it stands now (no heal, no settling): a snapshot is
    /// judged; the world goes on untouched.
    public func verdict() -> RunResult {
        RunResult(ScenarioRunner.judge(simulator.judgedSoFar()), scenario: replayScenario(endingAt: nil))
    }

    /// The anomalies the checker finds in the run so far (see `verdict()`).
    public var anomalies: [Anomaly] { verdict().anomalies }

    /// Ends the run as a file's run ends (heal, settle, judge) and returns its result. Call it
    /// last: the world is finished afterwards (`isFinished`); acts on it then throw, and
    /// `advance(by:)` / `runUntilQuiescent(limit:)` are refused. Calling it again returns the same
    /// result without running anything.
    public func finish() -> RunResult {
        if let finishedResult { return finishedResult }
        standWhereAStepWouldRun()
        let end = simulator.currentTime
        let result = RunResult(ScenarioRunner.judge(simulator.finishRun(healSequence: healSequence)), scenario: replayScenario(endingAt: end))
        finishedResult = result
        return result
    }

    /// Makes the current time one at which nothing has run yet, so that an op (or the heal) run
    /// now comes before everything due now, as a step of a file does: the replay file's step then
    /// meets exactly what the world's op met. When an event already ran at this very time (time
    /// just moved to it, or `runUntilQuiescent()` stopped at it), the rest of this time's events
    /// run and the world stands one microsecond later.
    private func standWhereAStepWouldRun() {
        guard lastHandled == simulator.currentTime else { return }
        simulator.run(until: simulator.currentTime + SimDuration(microseconds: 1), includingDeadline: false, lastHandled: &lastHandled)
    }

    /// The scenario with the ops performed so far as its steps, ending at `end` (nil: a snapshot).
    private func replayScenario(endingAt end: SimInstant?) -> Scenario {
        guard let text = replayFile.text(endingAt: end, duration: run.duration) else { return scenario }
        return Scenario(file: scenario.file, text: text, registry: scenario.registry)
    }

    /// What device `id` shows now.
    func view(of id: String) -> DeviceView {
        guard let index = run.devices.firstIndex(where: { $0.id == id }) else { return DeviceView(entries: []) }
        return DeviceView(entries: simulator.view(ofDevice: index))
    }
}

extension SimDuration {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(microseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
