import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
import SyncLabResult

/// Driving a run by hand, for the library's stepping world (SPEC §9): start it, act on devices
/// at the current time, move time on, and take the run so far for the runner to judge. The same event
/// handling as `execute`, so a run driven this way behaves as a file's steps would.
extension Simulator {
    /// Writes the trace header and launches every device at time zero. Call once, first. The
    /// run's own `steps` are scheduled too (a world usually has none).
    public mutating func start() {
        trace.header(run)
        for index in devices.indices {
            let factBatch = nextBatch()
            recordFact(FactRecord(batch: factBatch, at: .start, device: devices[index].id, kind: .accountChanged(devices[index].account)))
            queue.push(.launch(device: index), at: .start)
        }
        for index in run.steps.indices { queue.push(.step(index: index), at: run.steps[index].at) }
    }

    /// True time now.
    public var currentTime: SimInstant { now }

    /// Per device: since when it is crashed (the current time stands for it), nil while running.
    public var crashedSince: [SimInstant?] { devices.map { $0.crashed ? now : nil } }

    /// True if nothing is in flight and no engine has work it could send now.
    public var quiescent: Bool { isQuiescent }

    /// Runs one op on one device (by index) now, as a step would. `source` names it in the trace.
    public mutating func perform(_ op: StepOp, onDevice index: Int, source: String) {
        execute(step: Step(at: now, devices: [index], op: op, source: source, fileIndex: 0))
    }

    /// Runs a whole step now (its `cloud.*` ops included), whatever time it was written for.
    public mutating func perform(_ step: Step) {
        var step = step
        step.at = now
        execute(step: step)
    }

    /// Handles every event due up to `deadline`, then stands at `deadline`; with `untilQuiescent`
    /// it stops early as soon as nothing is in flight and no engine has work to send (periodic
    /// timers keep a queue busy forever; quiescence does not wait for them).
    /// - Returns: false if the event cap stopped it (a runaway).
    @discardableResult
    public mutating func run(until deadline: SimInstant, untilQuiescent: Bool = false) -> Bool {
        if untilQuiescent && isQuiescent { return true }
        while let time = queue.nextTime, time <= deadline, let (eventTime, event) = queue.pop() {
            if statistics.events >= run.end.maxEvents { return false }
            now = eventTime
            statistics.events += 1
            handle(event)
            if untilQuiescent && isQuiescent { return true }
        }
        if !untilQuiescent && deadline > now { now = deadline }
        return true
    }

    /// What device `index`'s app shows now, every store, sorted by item (empty when the app is
    /// not installed or the device is crashed).
    public func view(ofDevice index: Int) -> [ViewEntry] { localView(index) }

    /// The run so far, as if it ended now without a heal, for the runner to judge
    /// (`ScenarioRunner.judge`): a copy is finished, this run goes on untouched.
    public func judgedSoFar() -> RunOutcome {
        var copy = self
        return copy.finish(settled: isQuiescent, capHit: false, judge: true)
    }

    /// Ends the run as a file's run ends: the heal and settle phase (SPEC §5 `end`); the runner judges it.
    public mutating func finishRun() -> RunOutcome {
        queue.push(.heal, at: now)
        return settle(judge: true)
    }
}
