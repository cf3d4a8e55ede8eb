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
    /// It counts as one event, as a file's step does.
    public mutating func perform(_ step: Step) {
        var step = step
        step.at = now
        statistics.events += 1
        execute(step: step)
    }

    /// Handles every event due up to `deadline`, then stands at `deadline`; with `untilQuiescent`
    /// it stops early as soon as nothing is in flight and no engine has work to send (periodic
    /// timers keep a queue busy forever; quiescence does not wait for them).
    /// - Parameters:
    ///   - includingDeadline: false handles only the events due before `deadline`: an op then run
    ///     at `deadline` comes before everything due then, where a file's step at that time runs.
    ///   - lastHandled: set to the time of the last event handled, when any is.
    /// - Returns: false if the event cap stopped it (a runaway).
    @discardableResult
    public mutating func run(until deadline: SimInstant, untilQuiescent: Bool = false, includingDeadline: Bool = true,
                             lastHandled: inout SimInstant?) -> Bool {
        if untilQuiescent && isQuiescent { return true }
        while let time = queue.nextTime, time < deadline || (includingDeadline && time == deadline), let (eventTime, event) = queue.pop() {
            if statistics.events >= run.end.maxEvents { return false }
            now = eventTime
            lastHandled = eventTime
            statistics.events += 1
            handle(event)
            if untilQuiescent && isQuiescent { return true }
        }
        if !untilQuiescent && deadline > now { now = deadline }
        return true
    }

    /// `run(until:untilQuiescent:includingDeadline:lastHandled:)` for a caller that does not ask
    /// when the last event was.
    @discardableResult
    public mutating func run(until deadline: SimInstant, untilQuiescent: Bool = false) -> Bool {
        var ignored: SimInstant?
        return run(until: deadline, untilQuiescent: untilQuiescent, lastHandled: &ignored)
    }

    /// A place in the event order for the heal, taken right after `start()` (where a file's run
    /// pushes it): `finishRun(healSequence:)` then heals before anything else due at its time,
    /// as a file's end phase does.
    public mutating func reserveHealSequence() -> UInt64 { queue.reserveSequence() }

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
    /// - Parameter healSequence: from `reserveHealSequence()`; nil heals after what is due now.
    public mutating func finishRun(healSequence: UInt64? = nil) -> RunOutcome {
        if let healSequence { queue.push(.heal, at: now, sequence: healSequence) } else { queue.push(.heal, at: now) }
        return settle(judge: true)
    }
}
