import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines
import SyncLabScenario
import SyncLabHistory
import SyncLabResult
import SyncLabApps

/// Runs one `ScenarioRun`: the discrete-event loop over devices, links, the cloud and engines.
///
/// Single-threaded and deterministic: every event is keyed on (time, insertion sequence); all
/// randomness comes from named sub-streams of the run's seed; per-device state lives in arrays
/// indexed by device, so nothing depends on hash order.
public struct Simulator {
    let run: ScenarioRun
    let options: SimulationOptions
    var queue = EventQueue<SimulationEvent>()
    var devices: [VirtualDevice] = []
    var cloud: Cloud
    /// `cloud.clock.set`: the cloud's clock is true time plus this.
    var cloudClockOffset = SimDuration.zero
    /// True time of the event being handled.
    var now = SimInstant.start
    var history: History
    var trace: TraceRecorder
    /// Requests sent and not yet answered: the boot they belong to and when they time out.
    var inFlight: InFlightTable
    var pushesInFlight = 0
    var timerGenerations: [TimerKey: UInt32] = [:]
    /// How many engines report work they could send now.
    var busyEngines = 0
    /// The engine step or cloud request the facts being recorded belong to.
    var batch = 0
    var scratchCloudActions: [CloudAction] = []
    /// The typed trace lines' details that go with those actions (`.logFields(i)` is the i-th).
    var scratchLogs: [LogFields] = []
    /// An engine context between steps, its buffers kept (see `makeContext`).
    var spareContext: EngineContext?
    /// The buffer engines list a notification's keys in (`EngineContext.keysBuffer`).
    var scratchKeys: [String] = []
    /// Requests and responses in the event queue, by the slot their arrival event names.
    var parkedRequests = ParkedMessages<RequestEnvelope>()
    var parkedResponses = ParkedMessages<ResponseEnvelope>()
    /// KVS notifications and document conflicts for hosted apps, told after the engine step that gave them.
    var appNotifications: [AppNotification] = []
    /// The KVS apps' reads not yet in their devices' memories (see `KVSAppPendingNotes`).
    var kvsAppNotes = KVSAppPendingNotes()
    var assertFailures: [String] = []
    var statistics = RunStatistics()
    var settling = false
    var settleDeadline = SimInstant(microseconds: .max)

    public init(run: ScenarioRun, options: SimulationOptions = SimulationOptions()) {
        self.run = run
        self.options = options
        let configuration = CloudConfiguration(accountCount: run.accounts.count, limits: run.limits, settings: run.engine, environment: run.environment, schema: run.schema)
        cloud = Cloud(configuration: configuration, deviceCount: run.devices.count)
        inFlight = InFlightTable(deviceCount: run.devices.count)
        history = History(deviceNames: run.devices.map(\.id), accountNames: run.accounts)
        trace = TraceRecorder(enabled: options.recordTrace, deviceNames: run.devices.map(\.id), accountNames: run.accounts,
                              file: options.recordTrace ? options.traceFile.map { TraceFileWriter(path: $0) } : nil)
        scratchCloudActions.reserveCapacity(32)
        for (index, spec) in run.devices.enumerated() {
            let id = DeviceID(index: index)
            let account = AccountID(index: spec.account)
            var device = VirtualDevice(
                id: id, online: spec.online,
                clock: DeviceClock(offset: spec.clockOffset, driftPpm: spec.driftPpm),
                engineRandom: PerStore { SeededRandom(seed: run.seed, stream: "engine/\(spec.id)/\($0.rawValue)") },
                account: account, lastAccount: account,
                link: LinkState(settings: spec.link, seed: run.seed, deviceName: spec.id),
                name: spec.id)
            let apps = DeviceApps(spec.apps, engine: run.engine)
            // No team app: the built-in `reader` (scenario validation knows no other KVS name).
            device.kvsAppFactory = options.apps.kvs[apps.kvs] ?? { BuiltInApps.kvsReader() }
            device.documentsAppFactory = options.apps.documents[apps.documents]
            device.recordsAppFactory = options.apps.records[apps.records] ?? BuiltInApps.records(named: apps.records)
            if options.hostRecordsPolicies, device.recordsAppFactory == nil, let policy = RecordConflictPolicy(rawValue: apps.records) {
                device.recordsAppFactory = BuiltInApps.records(policy)
            }
            Simulator.installEngines(&device, identity: Simulator.identity(of: id, run: run, options: options), recovering: false)
            devices.append(device)
        }
    }

    /// Runs to the end and, unless `judge` is false (benchmarks), runs the checker.
    public mutating func execute(judge: Bool = true) -> RunOutcome {
        start()
        queue.push(.heal, at: max(run.steps.last?.at ?? .start, run.end.at ?? .start))
        return settle(judge: judge)
    }

    /// Runs every event due, through the heal event in the queue and the settle phase after it,
    /// until quiescent after the heal, past `settle`, or at the event cap; then finishes the run.
    mutating func settle(judge: Bool) -> RunOutcome {
        var settled = false
        var capHit = false
        // Set when the settle deadline cut the run: the event past it was popped, so an empty
        // queue afterwards says nothing about quiescence.
        var deadlinePassed = false
        while let (time, event) = queue.pop() {
            if settling && time > settleDeadline {
                now = settleDeadline
                deadlinePassed = true
                break
            }
            // The cap is the number of events handled: the one past it is neither handled nor counted.
            if statistics.events >= run.end.maxEvents { capHit = true; break }
            now = time
            statistics.events += 1
            handle(event)
            if settling && isQuiescent { settled = true; break }
        }
        if !capHit && !deadlinePassed && queue.isEmpty && settling { settled = true }
        trace.record(now, .end, [("settled", .bool(settled)), ("events", .int(Int64(statistics.events)))])
        return finish(settled: settled, capHit: capHit, judge: judge)
    }

    /// Nothing in flight and no engine with work it could send now (SPEC §5).
    var isQuiescent: Bool { inFlight.isEmpty && pushesInFlight == 0 && busyEngines == 0 }

    mutating func nextBatch() -> Int { batch += 1; return batch }

    /// Keeps a fact for the checker (unless the run does not record history).
    @inline(__always) mutating func recordFact(_ fact: FactRecord) {
        if options.recordHistory { history.facts.append(fact) }
    }

    /// `recordFact` of an engine's observation in the current batch, without a `FactRecord`
    /// around it (the hot path of `--check`: one copy of the observation fewer).
    @inline(__always) mutating func recordObservation(_ observation: consuming Observation, device: DeviceID?) {
        if options.recordHistory { history.facts.append(observation, batch: batch, at: now, device: device) }
    }

    /// `recordFact` of an engine's notification in the current batch, without a `FactRecord` around it.
    @inline(__always) mutating func recordNotification(_ notification: AppNotification, device: DeviceID?) {
        if options.recordHistory { history.facts.append(notification, batch: batch, at: now, device: device) }
    }

    mutating func handle(_ event: SimulationEvent) {
        switch event {
        case .launch(let index):
            trace.record(now, .launch, [("device", .string(devices[index].name)), ("online", .bool(devices[index].online))])
            launchEngines(index)
        case .step(let index):
            execute(step: run.steps[index])
        case .heal:
            heal()
        case .requestArrives(let slot, let epoch):
            requestArrives(parkedRequests.take(slot), epoch: epoch)
        case .responseArrives(let slot, let epoch, let boot):
            responseArrives(parkedResponses.take(slot), epoch: epoch, boot: boot)
        case .requestTimeout(let index, let store, let requestID, let boot):
            requestTimedOut(index, store, requestID, boot)
        case .pushArrives(let index, let push, let epoch, let boot):
            pushArrives(index, push, epoch: epoch, boot: boot)
        case .timer(let index, let store, let timer, let generation, let boot):
            guard devices[index].boot == boot, timerGenerations[TimerKey(device: index, store: store, timer: timer)] == generation else { return }
            trace.record(now, .timer, [("device", .string(devices[index].name)), ("store", .string(store.rawValue)), ("kind", .int(Int64(timer.kind))), ("id", .int(timer.id))])
            deliver(.timer(timer), to: index, store)
        }
    }

    /// The heal phase (SPEC §5 `end`): after the last step.
    mutating func heal() {
        settling = true
        settleDeadline = now + run.end.settle
        trace.record(now, .heal, [("heal", .bool(run.end.heal)), ("settleUntil_us", .int(settleDeadline.microseconds))])
        guard run.end.heal else { return }
        cloud.faults = CloudFaults()
        for index in devices.indices {
            if devices[index].crashed { restart(index) }
            // Network faults cleared: the link as configured, but nothing lost any more (SPEC §5
            // `end`), so the settle phase cannot end with a change that never got through only
            // because its push or fetch was dropped. Latency and bandwidth stay as configured.
            devices[index].link.settings = devices[index].link.configured
            devices[index].link.settings.loss = 0
            devices[index].link.settings.pushLoss = 0
            if !devices[index].online { setOnline(index, true) }
        }
        for index in devices.indices where devices[index].installed {
            for store in Store.allCases { deliver(.foreground, to: index, store) }
        }
    }

    /// The cloud's clock now.
    var cloudClock: LocalInstant { LocalInstant(microseconds: Saturating.add(now.microseconds, cloudClockOffset.microseconds)) }
}

/// Identifies one request in flight.
struct RequestKey: Hashable {
    var device: Int32
    var store: Store
    var requestID: UInt64
}

struct InFlightRequest {
    // The 8-byte fields first, then the 4- and 1-byte ones: 30 bytes, so that `InFlightTable`'s
    // entries take 40 (declared first, `boot` left 4 bytes of padding: 48).
    /// When it times out; a response on its way moves it to the response's arrival plus the timeout.
    var deadline: SimInstant
    /// Where its timeout event stands (or would stand) in the queue: the deadline at send, and
    /// the place in push order the send reserved for it.
    var timeoutAt: SimInstant
    var timeoutSequence: UInt64
    var boot: UInt32
    /// The timeout is in the queue. A request is answered far more often than it times out, so
    /// its timeout is pushed (at its reserved place) only once it may be needed: when the request
    /// or its response is lost or dropped, when the cloud holds it unanswered, or when the
    /// response arrives no earlier than the timeout. Answered requests push nothing, and the run
    /// handles exactly the same live events in the same order as if every timeout were queued.
    var timeoutQueued: Bool
    /// A response is on its way to the device.
    var answerOnItsWay: Bool

    init(boot: UInt32, deadline: SimInstant, timeoutSequence: UInt64 = 0, timeoutQueued: Bool = true) {
        self.boot = boot
        self.deadline = deadline
        self.timeoutAt = deadline
        self.timeoutSequence = timeoutSequence
        self.timeoutQueued = timeoutQueued
        self.answerOnItsWay = false
    }
}

/// Identifies one engine timer.
struct TimerKey: Hashable {
    var device: Int
    var store: Store
    var timer: EngineTimer
}

/// Knobs for how much a run records (benchmarks turn the trace off).
public struct SimulationOptions: Sendable {
    /// Write `trace.jsonl` lines. Default true.
    public var recordTrace = true
    /// Keep observations and notifications for the checker. Default true; benchmarks that skip
    /// the checker turn it off so memory does not grow with the run.
    public var recordHistory = true
    /// With `recordTrace`: stream the trace into this file as it is made (memory stays flat)
    /// instead of keeping it; `RunOutcome.trace` is then empty and `traceFile` says what was written.
    public var traceFile: String?
    /// The team's own apps, by name (SPEC §9). Empty: only built-in apps.
    public var apps = AppFactories()
    /// Runs the records policies (`serverWins`, `clientWins`, `merge`) as the built-in records
    /// apps on the platform instead of the engine's own: for comparing the two (`--host-records-policies`).
    public var hostRecordsPolicies = false
    public init() {}
}
