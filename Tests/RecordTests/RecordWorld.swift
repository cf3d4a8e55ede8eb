import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// A tiny world for record tests: engines, one `RecordService`, and a pump that carries
/// requests, responses, pushes and timers between them in FIFO order. Time moves only through
/// `advance(_:)`; messages take no time.
/// Kept for what the public `World` cannot express (issue 11): lost responses, throttling
/// windows, the requests on the wire, and engine internals (change tags, pending writes, request
/// counters, the write id the cloud keeps per field). Tests that only need user ops, airplane
/// mode, crashes, time and views drive `World` (`RecordEndToEndTests`).
struct RecordWorld {
    struct Fact {
        var device: Int
        var observation: Observation
    }

    var service: RecordService
    var storage: StorageLedger
    var engines: [RecordEngine?]
    var identities: [EngineIdentity]
    var accounts: [AccountID?]
    var online: [Bool]
    /// Per device clock offset from true time (microseconds).
    var clockOffsets: [Int64]
    var now: Int64 = 0
    var random = SeededRandom(seed: 1)
    var facts: [Fact] = []
    var notifications: [(device: Int, AppNotification)] = []
    var logs: [(device: Int, event: String)] = []
    /// Requests sent, in order (for asserting what went on the wire).
    var sent: [(device: Int, request: RecordRequest)] = []
    private var outbox: [(device: Int, envelope: RequestEnvelope)] = []
    private var inbox: [(device: Int, envelope: ResponseEnvelope)] = []
    private var timers: [(device: Int, timer: EngineTimer, due: Int64)] = []
    /// When set, requests arriving before this true time fail with `requestRateLimited`.
    var throttleUntil: Int64?
    var throttleRetryAfter = SimDuration.seconds(20)
    /// The responses of the next N requests are lost (the cloud applies them; the device sees
    /// `networkFailure`).
    var loseResponses = 0
    /// Requests answered by the cloud (not counting throttled ones), per device.
    var cloudHandled: [Int: [(at: Int64, request: RecordRequest)]] = [:]

    init(devices: Int = 2, settings: EngineSettings = EngineSettings(), limits: Limits = Limits(),
         environment: SchemaEnvironment = .development, accounts: [AccountID?]? = nil, engineLimits: Limits? = nil,
         schema: [RecordTypeSchema] = []) {
        let configuration = CloudConfiguration(accountCount: 2, limits: limits, settings: settings, environment: environment, schema: schema)
        service = RecordService(configuration: configuration)
        storage = StorageLedger(accountCount: 2, quotaBytes: limits.storageBytes)
        identities = (0..<devices).map { index in
            EngineIdentity(device: DeviceID(index: index), deviceName: ["A", "B", "C", "D"][index], settings: settings,
                           limits: engineLimits ?? limits, environment: environment)
        }
        self.accounts = accounts ?? Array(repeating: AccountID(0), count: devices)
        online = Array(repeating: true, count: devices)
        clockOffsets = Array(repeating: 0, count: devices)
        engines = []
        for index in 0..<devices {
            engines.append(RecordEngine(identity: identities[index], account: self.accounts[index], recovering: nil))
        }
        for index in 0..<devices { deliver(.launched, to: index) }
        settle()
    }

    // MARK: Driving

    mutating func context(_ device: Int) -> EngineContext {
        var context = EngineContext(now: LocalInstant(microseconds: now + clockOffsets[device]), random: random)
        context.derivedWrites = derivedWrites[device] ?? 0
        return context
    }

    mutating func deliver(_ event: EngineEvent, to device: Int) {
        guard engines[device] != nil else { return }
        var ctx = context(device)
        engines[device]!.handle(event, &ctx)
        carryOut(ctx.actions, ctx.logs, device)
    }

    /// Runs an app call on a device's engine and carries out its actions.
    @discardableResult
    mutating func call(_ device: Int, _ body: (inout RecordEngine, inout EngineContext) -> AppCallResult) -> AppCallResult {
        var ctx = context(device)
        let result = body(&engines[device]!, &ctx)
        carryOut(ctx.actions, ctx.logs, device)
        return result
    }

    private var writeCounters: [Int: UInt32] = [:]
    /// Per device, engine-made writes so far: the host's counter (`EngineContext.derivedWrites`).
    private var derivedWrites: [Int: UInt32] = [:]
    mutating func nextWrite(_ device: Int) -> WriteID {
        writeCounters[device, default: 0] += 1
        return WriteID(device: DeviceID(index: device), sequence: writeCounters[device]!)
    }

    @discardableResult
    mutating func save(_ device: Int, zone: String = "Z", type: String = "Note", name: String, _ fields: [(String, FieldValue?)],
                       database: DatabaseScope = .private) -> (WriteID, AppCallResult) {
        let write = nextWrite(device)
        let change = RecordFieldsChange(database: database, zone: zone, type: type, name: name,
                                        fields: fields.map { FieldAssignment(name: $0.0, value: $0.1) })
        let result = call(device) { engine, ctx in engine.save(change, write: write, &ctx) }
        return (write, result)
    }

    @discardableResult
    mutating func delete(_ device: Int, zone: String = "Z", name: String, database: DatabaseScope = .private) -> (WriteID, AppCallResult) {
        let write = nextWrite(device)
        let result = call(device) { engine, ctx in engine.delete(database: database, zone: zone, name: name, write: write, &ctx) }
        return (write, result)
    }

    @discardableResult
    mutating func createZone(_ device: Int, _ zone: String = "Z") -> AppCallResult {
        let write = nextWrite(device)
        return call(device) { engine, ctx in engine.createZone(database: .private, zone: zone, write: write, &ctx) }
    }

    @discardableResult
    mutating func deleteZone(_ device: Int, _ zone: String = "Z", byUser: Bool = false) -> (WriteID, AppCallResult) {
        let write = nextWrite(device)
        let result = call(device) { engine, ctx in engine.deleteZone(database: .private, zone: zone, byUser: byUser, write: write, &ctx) }
        return (write, result)
    }

    mutating func setOnline(_ device: Int, _ isOnline: Bool) {
        online[device] = isOnline
        deliver(.connectivity(online: isOnline), to: device)
    }

    /// Crash: the engine is rebuilt from its durable state and launched again.
    mutating func crashAndRestart(_ device: Int) {
        let saved = engines[device]!.durable
        engines[device] = nil
        timers.removeAll { $0.device == device }
        outbox.removeAll { $0.device == device }
        inbox.removeAll { $0.device == device }
        engines[device] = RecordEngine(identity: identities[device], account: accounts[device], recovering: saved)
        if !online[device] { deliver(.connectivity(online: false), to: device) }
        deliver(.launched, to: device)
    }

    private mutating func carryOut(_ actions: [EngineAction], _ lines: [LogFields], _ device: Int) {
        for action in actions {
            if case .observe(.derivedWrite(let write, _, _, _, _)) = action { derivedWrites[device] = max(derivedWrites[device] ?? 0, write.sequence) }
            switch action {
            case .send(let id, let body):
                guard case .records(let request) = body else { continue }
                sent.append((device, request))
                let envelope = RequestEnvelope(requestID: id, device: DeviceID(index: device), account: accounts[device] ?? AccountID(0), body: body)
                if online[device] {
                    outbox.append((device, envelope))
                } else {
                    inbox.append((device, ResponseEnvelope(requestID: id, device: DeviceID(index: device), store: .records, result: .failed(.networkUnavailable))))
                }
            case .setTimer(let timer, let after):
                timers.removeAll { $0.device == device && $0.timer == timer }
                timers.append((device, timer, now + after.microseconds))
            case .cancelTimer(let timer):
                timers.removeAll { $0.device == device && $0.timer == timer }
            case .notify(let notification):
                notifications.append((device, notification))
            case .observe(let observation):
                facts.append(Fact(device: device, observation: observation))
            case .observed:
                // Only when the host sets `observationsApart`, which this world does not.
                preconditionFailure("RecordWorld: an observation kept apart, which it never asks for")
            case .log(let event, _):
                logs.append((device, event))
            case .logFields(let line):
                logs.append((device, lines[line].event.description))
            }
        }
    }

    /// Delivers messages until none is left.
    mutating func settle(maxSteps: Int = 100_000) {
        var steps = 0
        while steps < maxSteps {
            steps += 1
            if !outbox.isEmpty {
                let (device, envelope) = outbox.removeFirst()
                if let until = throttleUntil, now < until {
                    inbox.append((device, ResponseEnvelope(requestID: envelope.requestID, device: envelope.device, store: .records,
                                                           result: .failed(.requestRateLimited(retryAfter: throttleRetryAfter)))))
                    continue
                }
                guard case .records(let body) = envelope.body else { continue }
                cloudHandled[device, default: []].append((now, body))
                var ctx = CloudContext(now: LocalInstant(microseconds: now), arrival: 0)
                service.handle(envelope, body, &ctx, storage: &storage)
                for action in ctx.actions {
                    switch action {
                    case .respond(let response):
                        if loseResponses > 0 {
                            loseResponses -= 1
                            inbox.append((device, ResponseEnvelope(requestID: response.requestID, device: response.device, store: .records, result: .failed(.networkFailure))))
                        } else {
                            inbox.append((device, response))
                        }
                    case .push(let push, let target):
                        let index = Int(target.index)
                        if index < engines.count, online[index], engines[index] != nil { pendingPushes.append((index, push)) }
                    case .pushAccount, .observe, .log, .logFields:
                        break
                    }
                }
                continue
            }
            if !inbox.isEmpty {
                let (device, envelope) = inbox.removeFirst()
                deliver(.response(envelope), to: device)
                continue
            }
            if !pendingPushes.isEmpty {
                let (device, push) = pendingPushes.removeFirst()
                deliver(.push(push), to: device)
                continue
            }
            break
        }
    }
    private var pendingPushes: [(Int, PushNotification)] = []

    /// Moves time forward, firing due timers in order, settling after each.
    mutating func advance(_ duration: SimDuration) {
        let end = now + duration.microseconds
        while let next = timers.enumerated().filter({ $0.element.due <= end }).min(by: { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }) {
            timers.remove(at: next.offset)
            now = max(now, next.element.due)
            deliver(.timer(next.element.timer), to: next.element.device)
            settle()
        }
        now = end
        settle()
    }

    // MARK: Reading

    func engine(_ device: Int) -> RecordEngine { engines[device]! }

    /// A field as the device's app sees it.
    func local(_ device: Int, _ name: String, _ field: String, account: AccountID = AccountID(0)) -> ItemValue {
        let key = ItemKey(account: account, store: .records, name: name, field: field)
        return engines[device]!.localView().first { $0.item == key }?.value ?? .absent
    }

    /// A field as the cloud has it.
    func cloud(_ name: String, _ field: String, account: AccountID = AccountID(0)) -> ItemValue {
        let key = ItemKey(account: account, store: .records, name: name, field: field)
        return service.finalView(account: account).first { $0.item == key }?.value ?? .absent
    }

    func cloudWrite(_ name: String, _ field: String, account: AccountID = AccountID(0)) -> WriteID? {
        let key = ItemKey(account: account, store: .records, name: name, field: field)
        return service.finalView(account: account).first { $0.item == key }?.write
    }

    /// The device's view equals the cloud's for the account (values only).
    func converged(_ device: Int, account: AccountID = AccountID(0)) -> Bool {
        engines[device]!.localView().filter { $0.item.account == account }.map { ViewEntry(item: $0.item, value: $0.value, write: nil) }
            == service.finalView(account: account).map { ViewEntry(item: $0.item, value: $0.value, write: nil) }
    }

    func observations(_ device: Int? = nil) -> [Observation] {
        facts.filter { device == nil || $0.device == device }.map(\.observation)
    }

    func conflictsDetected(_ device: Int? = nil) -> Int {
        observations(device).filter { if case .conflictDetected = $0 { return true } else { return false } }.count
    }

    func rejections(_ device: Int? = nil) -> [(WriteID, ItemKey, String, String?)] {
        observations(device).compactMap { if case .rejected(let w, let i, let e, let l) = $0 { return (w, i, e, l) } else { return nil } }
    }

    func modifyRequests(_ device: Int) -> [RecordModify] {
        sent.filter { $0.device == device }.compactMap { if case .modifyRecords(let modify) = $0.request { return modify } else { return nil } }
    }

    mutating func clearRecords() {
        facts = []; notifications = []; logs = []; sent = []; cloudHandled = [:]
    }
}

func text(_ value: String) -> FieldValue { .string(value) }
func field(_ value: String) -> ItemValue { .field(.string(value)) }
