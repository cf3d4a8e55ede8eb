import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// Builders and readers shared by the KVS tests: engines and the service are driven directly,
/// inputs in, actions out (no simulator).
enum KVSTest {
    static let main = AccountID(0)
    static let other = AccountID(1)

    static func identity(_ device: Int32 = 0, limits: KVSLimits = KVSLimits(), source: TimestampSource = .device,
                         uploadDelay: SimDuration = .seconds(5)) -> EngineIdentity {
        EngineIdentity(device: DeviceID(device), deviceName: "D\(device)",
                       settings: EngineSettings(kvs: KVSSettings(uploadDelay: uploadDelay, timestampSource: source)),
                       limits: Limits(kvs: limits), environment: .development)
    }

    static func configuration(limits: KVSLimits = KVSLimits(), source: TimestampSource = .device, accounts: Int = 2) -> CloudConfiguration {
        CloudConfiguration(accountCount: accounts, limits: Limits(kvs: limits),
                           settings: EngineSettings(kvs: KVSSettings(timestampSource: source)), environment: .development)
    }

    static func context(at seconds: Int64 = 0, seed: UInt64 = 1) -> EngineContext {
        EngineContext(now: LocalInstant(microseconds: seconds * 1_000_000), random: SeededRandom(seed: seed, stream: "kvs"))
    }

    static func write(_ device: Int32, _ sequence: UInt32) -> WriteID { WriteID(device: DeviceID(device), sequence: sequence) }

    static func item(_ key: String, _ account: AccountID = main) -> ItemKey { ItemKey(account: account, store: .kvs, name: key) }

    static func at(_ seconds: Int64) -> LocalInstant { LocalInstant(microseconds: seconds * 1_000_000) }

    /// A fresh engine that has launched online and whose initial fetch was answered with `changes`.
    static func launchedEngine(_ device: Int32 = 0, limits: KVSLimits = KVSLimits(), source: TimestampSource = .device,
                               changes: [KVSChange] = [], cursor: UInt64 = 0) -> KVSEngine {
        var engine = KVSEngine(identity: identity(device, limits: limits, source: source), account: main, recovering: nil)
        var context = KVSTest.context()
        engine.handle(.launched, &context)
        if let (id, _) = sends(context.actions).first {
            var answer = KVSTest.context()
            engine.handle(.response(ok(id, .changes(changes, cursor: cursor))), &answer)
        }
        return engine
    }

    static func ok(_ requestID: UInt64, _ body: KVSResponse, device: Int32 = 0) -> ResponseEnvelope {
        ResponseEnvelope(requestID: requestID, device: DeviceID(device), store: .kvs, result: .ok(.kvs(body)))
    }

    static func failed(_ requestID: UInt64, _ error: TransportError, device: Int32 = 0) -> ResponseEnvelope {
        ResponseEnvelope(requestID: requestID, device: DeviceID(device), store: .kvs, result: .failed(error))
    }

    // MARK: - Reading actions

    static func sends(_ actions: [EngineAction]) -> [(UInt64, KVSRequest)] {
        actions.compactMap { action in
            if case .send(let id, .kvs(let body)) = action { return (id, body) }
            return nil
        }
    }

    static func uploads(_ actions: [EngineAction]) -> [(UInt64, [KVSCall])] {
        sends(actions).compactMap { id, body in
            if case .upload(let calls) = body { return (id, calls) }
            return nil
        }
    }

    static func fetches(_ actions: [EngineAction]) -> [(UInt64, UInt64?)] {
        sends(actions).compactMap { id, body in
            if case .fetch(let since) = body { return (id, since) }
            return nil
        }
    }

    static func timers(_ actions: [EngineAction]) -> [(EngineTimer, SimDuration)] {
        actions.compactMap { action in
            if case .setTimer(let timer, let after) = action { return (timer, after) }
            return nil
        }
    }

    static func notifications(_ actions: [EngineAction]) -> [AppNotification] {
        actions.compactMap { action in
            if case .notify(let notification) = action { return notification }
            return nil
        }
    }

    struct Visible: Hashable {
        var key: String
        var value: ItemValue
        var write: WriteID?
        var cause: VisibilityCause
    }

    static func visible(_ actions: [EngineAction]) -> [Visible] {
        actions.compactMap { action in
            if case .observe(.visible(let item, let value, let write, let cause)) = action {
                return Visible(key: item.name, value: value, write: write, cause: cause)
            }
            return nil
        }
    }

    struct Rejected: Hashable {
        var write: WriteID
        var key: String
        var error: String
        var limit: String?
    }

    static func rejected(_ actions: [EngineAction]) -> [Rejected] {
        actions.compactMap { action in
            if case .observe(.rejected(let write, let item, let error, let limit)) = action {
                return Rejected(write: write, key: item.name, error: error, limit: limit)
            }
            return nil
        }
    }

    static func discarded(_ actions: [EngineAction]) -> [(WriteID, String, String)] {
        actions.compactMap { action in
            if case .observe(.discarded(let write, let item, let reason)) = action { return (write, item.name, reason) }
            return nil
        }
    }

    static func view(_ engine: KVSEngine) -> [String: PlistValue] {
        var result: [String: PlistValue] = [:]
        for entry in engine.localView() {
            if case .kvs(let value) = entry.value { result[entry.item.name] = value }
        }
        return result
    }

    // MARK: - The cloud side

    struct LWW: Hashable {
        var key: String
        var chosen: WriteID
        var over: WriteID
        var rule: String
    }

    /// Runs one request through the service and returns its answer and the other actions.
    static func send(_ service: inout KVSService, _ body: KVSRequest, device: Int32 = 0, account: AccountID = main,
                     requestID: UInt64 = 1, cloudNow: Int64 = 0, arrival: UInt64 = 1) -> (response: KVSResponse?, actions: [CloudAction]) {
        var context = CloudContext(now: at(cloudNow), arrival: arrival)
        let envelope = RequestEnvelope(requestID: requestID, device: DeviceID(device), account: account, body: .kvs(body))
        service.handle(envelope, body, &context)
        var response: KVSResponse?
        for action in context.actions {
            if case .respond(let answer) = action, case .ok(.kvs(let body)) = answer.result {
                precondition(response == nil, "the service answered twice")
                response = body
            }
        }
        return (response, context.actions)
    }

    static func lastWriterWins(_ actions: [CloudAction]) -> [LWW] {
        actions.compactMap { action in
            if case .observe(.lastWriterWins(let item, let chosen, let over, let rule)) = action {
                return LWW(key: item.name, chosen: chosen, over: over, rule: rule)
            }
            return nil
        }
    }

    static func pushes(_ actions: [CloudAction]) -> [(AccountID, DeviceID?)] {
        actions.compactMap { action in
            if case .pushAccount(let push, let except) = action { return (push.account, except) }
            return nil
        }
    }

    static func call(_ write: WriteID, _ entries: [(String, PlistValue?)], at seconds: Int64) -> KVSCall {
        KVSCall(write: write, entries: entries.map { KVSEntry(key: $0.0, value: $0.1) }, timestamp: at(seconds))
    }
}
