import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines
import SyncLabApps

/// A tiny hand-driven world for document tests: one DocumentService, a few DocumentEngines, and
/// the messages between them in explicit queues. No simulator: the test decides what is
/// delivered when (in order, one message at a time, or shuffled by a seed), and can drop a
/// request from the queue. Kept for what the public `World` cannot express (issue 11): exact
/// delivery orders, a lost request, and engine internals (an upload's base and chain, pending
/// writes, conflict versions, derived writes' parents, surviving writes). Tests that only need
/// user ops, airplane mode, crashes, time and views drive `World` (`DocumentEndToEndTests`).
struct DocumentWorld {
    enum Message {
        case request(RequestEnvelope)
        case response(ResponseEnvelope)
        case push(device: Int)
    }

    var service: DocumentService
    var storage: StorageLedger
    var engines: [DocumentEngine?]
    var identities: [EngineIdentity]
    var accounts: [AccountID?]
    var online: [Bool]
    var clockOffsetsMicroseconds: [Int64]
    /// True time in microseconds; every delivery advances it by one millisecond.
    var nowMicroseconds: Int64 = 0
    var arrival: UInt64 = 0
    var queue: [Message] = []
    /// Timers set and not yet fired, per device (latest per timer wins).
    var timers: [[EngineTimer]]
    var observations: [(device: Int?, Observation)] = []
    var notifications: [(device: Int, AppNotification)] = []
    var sentRequests: [(device: Int, DocumentRequest)] = []
    /// Per device, engine-made writes so far: the host's counter (`EngineContext.derivedWrites`).
    var derivedWrites: [Int: UInt32] = [:]

    init(devices names: [String], settings: EngineSettings = EngineSettings(), storageBytes: Int64 = 5 * 1024 * 1024 * 1024,
         accountCount: Int = 1) {
        let limits = Limits(storageBytes: storageBytes)
        let configuration = CloudConfiguration(accountCount: accountCount, limits: limits, settings: settings, environment: .development)
        service = DocumentService(configuration: configuration)
        storage = StorageLedger(accountCount: accountCount, quotaBytes: storageBytes)
        identities = names.enumerated().map { EngineIdentity(device: DeviceID(index: $0.offset), deviceName: $0.element, settings: settings, limits: limits, environment: .development) }
        engines = Array(repeating: nil, count: names.count)
        accounts = Array(repeating: AccountID(0), count: names.count)
        online = Array(repeating: true, count: names.count)
        clockOffsetsMicroseconds = Array(repeating: 0, count: names.count)
        timers = Array(repeating: [], count: names.count)
        for index in names.indices {
            engines[index] = DocumentEngine(identity: identities[index], account: accounts[index], recovering: nil)
            engines[index]?.builtInApp = BuiltInApps.documents(identities[index].settings.documents.conflict)
            deliver(.launched, to: index)
        }
    }

    static let account = AccountID(0)
    static func key(_ path: String) -> ItemKey { ItemKey(account: account, store: .documents, name: path) }
    func write(_ device: Int, _ sequence: UInt32) -> WriteID { WriteID(device: DeviceID(index: device), sequence: sequence) }

    func localNow(_ device: Int) -> LocalInstant { LocalInstant(microseconds: nowMicroseconds + clockOffsetsMicroseconds[device]) }

    // MARK: Driving engines

    mutating func context(_ device: Int) -> EngineContext {
        var context = EngineContext(now: localNow(device), random: SeededRandom(seed: 1, stream: "doc\(device)"))
        context.derivedWrites = derivedWrites[device] ?? 0
        return context
    }

    mutating func deliver(_ event: EngineEvent, to device: Int) {
        var context = context(device)
        engines[device]?.handle(event, &context)
        carryOut(context.actions, from: device)
    }

    mutating func save(_ device: Int, _ path: String, _ text: String, write sequence: UInt32) {
        var context = context(device)
        let id = write(device, sequence)
        let result = engines[device]?.save(path: path, content: .text(text), write: id, &context)
        precondition(result == .accepted)
        carryOut(context.actions, from: device)
    }

    mutating func save(_ device: Int, _ path: String, _ content: DocumentContent, write sequence: UInt32) {
        var context = context(device)
        let id = write(device, sequence)
        _ = engines[device]?.save(path: path, content: content, write: id, &context)
        carryOut(context.actions, from: device)
    }

    mutating func append(_ device: Int, _ path: String, _ text: String, write sequence: UInt32) {
        var context = context(device)
        let id = write(device, sequence)
        _ = engines[device]?.append(path: path, text: text, write: id, &context)
        carryOut(context.actions, from: device)
    }

    @discardableResult
    mutating func delete(_ device: Int, _ path: String, write sequence: UInt32) -> AppCallResult? {
        var context = context(device)
        let id = write(device, sequence)
        let result = engines[device]?.delete(path: path, write: id, &context)
        carryOut(context.actions, from: device)
        return result
    }

    mutating func setOnline(_ device: Int, _ isOnline: Bool) {
        online[device] = isOnline
        deliver(.connectivity(online: isOnline), to: device)
    }

    /// A crash: only durable state survives; the engine is rebuilt and launched.
    mutating func crashAndRestart(_ device: Int) {
        let saved = engines[device]?.durable
        // Requests in flight from the old boot are answered into the void.
        queue.removeAll {
            if case .response(let response) = $0, Int(response.device.index) == device { return true }
            return false
        }
        timers[device] = []
        engines[device] = DocumentEngine(identity: identities[device], account: accounts[device], recovering: saved)
        engines[device]?.builtInApp = BuiltInApps.documents(identities[device].settings.documents.conflict)
        if !online[device] { deliver(.connectivity(online: false), to: device) }
        deliver(.launched, to: device)
    }

    mutating func carryOut(_ actions: [EngineAction], from device: Int) {
        for action in actions {
            if case .observe(.derivedWrite(let write, _, _, _, _)) = action { derivedWrites[device] = max(derivedWrites[device] ?? 0, write.sequence) }
            switch action {
            case .send(let requestID, let body):
                guard case .documents(let request) = body else { continue }
                sentRequests.append((device, request))
                let envelope = RequestEnvelope(requestID: requestID, device: DeviceID(index: device), account: accounts[device] ?? Self.account, body: body)
                if online[device] {
                    queue.append(.request(envelope))
                } else {
                    queue.append(.response(ResponseEnvelope(requestID: requestID, device: DeviceID(index: device), store: .documents, result: .failed(.networkUnavailable))))
                }
            case .setTimer(let timer, _):
                timers[device].removeAll { $0 == timer }
                timers[device].append(timer)
            case .cancelTimer(let timer):
                timers[device].removeAll { $0 == timer }
            case .notify(let notification):
                notifications.append((device, notification))
            case .observe(let observation):
                observations.append((device, observation))
            case .observed:
                preconditionFailure("DocumentWorld: an observation kept apart, which it never asks for")
            case .log, .logFields:
                break
            }
        }
    }

    // MARK: The cloud side

    mutating func cloudHandle(_ request: RequestEnvelope) {
        arrival += 1
        var context = CloudContext(now: LocalInstant(microseconds: nowMicroseconds), arrival: arrival)
        guard case .documents(let body) = request.body else { return }
        service.handle(request, body, &context, storage: &storage)
        for action in context.actions {
            switch action {
            case .respond(let response): queue.append(.response(response))
            case .pushAccount(let push, let except):
                for index in engines.indices where DeviceID(index: index) != except && accounts[index] == push.account {
                    queue.append(.push(device: index))
                }
            case .push(_, let to): queue.append(.push(device: Int(to.index)))
            case .observe(let observation): observations.append((nil, observation))
            case .log, .logFields: break
            }
        }
    }

    // MARK: Delivery

    /// Delivers one message: the first in the queue, or (with `random`) any message whose
    /// device has no earlier message in the queue (links deliver in order).
    @discardableResult
    mutating func step(_ random: inout SeededRandom?) -> Bool {
        guard !queue.isEmpty else { return false }
        var index = 0
        if random != nil {
            var heads: [Int] = []
            var seenDevices: [Int] = []
            for (position, message) in queue.enumerated() {
                let device = Self.device(of: message)
                if !seenDevices.contains(device) { seenDevices.append(device); heads.append(position) }
            }
            index = heads[Int(random!.next() % UInt64(heads.count))]
        }
        let message = queue.remove(at: index)
        nowMicroseconds += 1_000
        switch message {
        case .request(let request):
            cloudHandle(request)
        case .response(let response):
            deliver(.response(response), to: Int(response.device.index))
        case .push(let device):
            if online[device] { deliver(.push(PushNotification(store: .documents, account: Self.account)), to: device) }
        }
        return true
    }

    static func device(of message: Message) -> Int {
        switch message {
        case .request(let request): return Int(request.device.index)
        case .response(let response): return Int(response.device.index)
        case .push(let device): return device
        }
    }

    /// Delivers messages until none are left (bounded).
    mutating func run(seed: UInt64? = nil) {
        var random: SeededRandom? = seed.map { SeededRandom(seed: $0, stream: "pump") }
        var steps = 0
        while step(&random) {
            steps += 1
            precondition(steps < 10_000, "runaway message exchange")
        }
    }

    /// Fires every pending timer once (retries), then runs to quiet.
    mutating func fireTimers() {
        for device in engines.indices {
            let due = timers[device]
            timers[device] = []
            for timer in due { deliver(.timer(timer), to: device) }
        }
        run()
    }

    // MARK: Looking

    func view(_ device: Int) -> [ViewEntry] { engines[device]?.localView() ?? [] }
    var cloudView: [ViewEntry] { service.finalView(account: Self.account) }
    func cloudText(_ path: String) -> String? {
        for entry in cloudView where entry.item.name == path {
            if case .document(.text(let text)) = entry.value { return text }
        }
        return nil
    }
    func localText(_ device: Int, _ path: String) -> String? {
        for entry in view(device) where entry.item.name == path {
            if case .document(.text(let text)) = entry.value { return text }
        }
        return nil
    }

    var conflictDetectedCount: Int {
        observations.reduce(0) { count, entry in
            if case .conflictDetected = entry.1 { return count + 1 }
            return count
        }
    }

    func visibles(_ device: Int) -> [(ItemKey, ItemValue, WriteID?, VisibilityCause)] {
        observations.compactMap { entry in
            guard entry.device == device, case .visible(let item, let value, let write, let cause) = entry.1 else { return nil }
            return (item, value, write, cause)
        }
    }

    var isQuiet: Bool { queue.isEmpty && engines.allSatisfy { $0?.isQuiescent ?? true } }
}
