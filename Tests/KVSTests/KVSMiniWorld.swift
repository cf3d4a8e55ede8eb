import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// A few devices and the KVS service wired together by hand: requests are delivered at once in
/// send order, timers fire when the test says. Kept for what the public `World` cannot express
/// (issue 11): exactly one answer lost after the cloud applied the request. Everything a user
/// does (ops, clocks, limits, views, notifications) is tested through `World` instead
/// (`KVSEndToEndTests`).
struct KVSMiniWorld {
    var cloud: KVSService
    var engines: [KVSEngine]
    var randoms: [SeededRandom]
    /// Each device's clock offset from true time, in seconds.
    var clockOffsets: [Int64]
    /// True time, in seconds.
    var now: Int64 = 0
    var arrival: UInt64 = 0
    var outbox: [(device: Int, requestID: UInt64, body: KVSRequest)] = []
    var timers: [(device: Int, timer: EngineTimer)] = []
    /// Every engine action other than sends and timers, by device.
    var actions: [[EngineAction]]
    var cloudActions: [CloudAction] = []
    /// The next response to this device's request is lost (the cloud still applies the request).
    var loseNextResponse: [Bool]

    init(devices: Int, clockOffsets: [Int64]? = nil, limits: KVSLimits = KVSLimits(), source: TimestampSource = .device) {
        cloud = KVSService(configuration: KVSTest.configuration(limits: limits, source: source))
        engines = (0..<devices).map { KVSEngine(identity: KVSTest.identity(Int32($0), limits: limits, source: source), account: KVSTest.main, recovering: nil) }
        randoms = (0..<devices).map { SeededRandom(seed: 7, stream: "kvs-\($0)") }
        self.clockOffsets = clockOffsets ?? Array(repeating: 0, count: devices)
        actions = Array(repeating: [], count: devices)
        loseNextResponse = Array(repeating: false, count: devices)
        for device in 0..<devices { run(device) { engine, context in engine.handle(.launched, &context) } }
        deliverAll()
    }

    /// Runs one input on one device at its local time and files the actions.
    mutating func run(_ device: Int, _ body: (inout KVSEngine, inout EngineContext) -> Void) {
        var context = EngineContext(now: LocalInstant(microseconds: (now + clockOffsets[device]) * 1_000_000), random: randoms[device])
        body(&engines[device], &context)
        randoms[device] = context.random
        for action in context.actions {
            switch action {
            case .send(let id, .kvs(let request)): outbox.append((device, id, request))
            case .send: break
            case .setTimer(let timer, _):
                timers.removeAll { $0.device == device && $0.timer == timer }
                timers.append((device, timer))
            case .cancelTimer(let timer): timers.removeAll { $0.device == device && $0.timer == timer }
            case .notify, .observe, .log, .logFields, .observed: actions[device].append(action)
            }
        }
    }

    @discardableResult
    mutating func set(_ device: Int, _ sequence: UInt32, _ entries: [(key: String, value: PlistValue?)]) -> AppCallResult {
        var result = AppCallResult.unchanged
        run(device) { engine, context in result = engine.set(entries, write: KVSTest.write(Int32(device), sequence), &context) }
        return result
    }

    /// Delivers every request (and the answers and pushes they cause) until nothing is left.
    mutating func deliverAll() {
        while !outbox.isEmpty {
            let (device, id, body) = outbox.removeFirst()
            arrival += 1
            var context = CloudContext(now: LocalInstant(microseconds: now * 1_000_000), arrival: arrival)
            let envelope = RequestEnvelope(requestID: id, device: DeviceID(index: device), account: KVSTest.main, body: .kvs(body))
            cloud.handle(envelope, body, &context)
            for action in context.actions {
                switch action {
                case .respond(let response):
                    if loseNextResponse[device] {
                        loseNextResponse[device] = false
                        run(device) { engine, context in
                            engine.handle(.response(ResponseEnvelope(requestID: id, device: response.device, store: .kvs, result: .failed(.networkFailure))), &context)
                        }
                    } else {
                        run(device) { engine, context in engine.handle(.response(response), &context) }
                    }
                case .pushAccount(let push, let except):
                    for other in engines.indices where DeviceID(index: other) != except {
                        run(other) { engine, context in engine.handle(.push(push), &context) }
                    }
                case .push, .observe, .log, .logFields:
                    cloudActions.append(action)
                }
            }
        }
    }

    /// Fires every pending timer (upload timers, retries), delivering after each, until none is left.
    mutating func fireTimers(limit: Int = 50) {
        var fired = 0
        while let next = timers.first, fired < limit {
            timers.removeFirst()
            fired += 1
            run(next.device) { engine, context in engine.handle(.timer(next.timer), &context) }
            deliverAll()
        }
    }

    func notifications(_ device: Int) -> [AppNotification] { KVSTest.notifications(actions[device]) }

    var allQuiescent: Bool { engines.allSatisfy(\.isQuiescent) && outbox.isEmpty }
}
