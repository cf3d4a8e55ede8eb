import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// SPEC §4: retries are never earlier than a `retryAfter` the cloud gave, a crash included.
@Suite("Documents engine: retryAfter across a crash")
struct DocumentRetryAfterTests {
    static let identity = EngineIdentity(device: DeviceID(index: 0), deviceName: "A", settings: EngineSettings(), limits: Limits(),
                                         environment: .development)

    static func context(at seconds: Int64) -> EngineContext {
        EngineContext(now: LocalInstant(microseconds: seconds * 1_000_000), random: SeededRandom(seed: 1, stream: "documents"))
    }

    static func sends(_ actions: [EngineAction]) -> [UInt64] {
        actions.compactMap { if case .send(let id, _) = $0 { return id } else { return nil } }
    }

    @Test func aRestartedEngineWaitsOutTheRetryAfterTheCloudGaveBeforeTheCrash() {
        var engine = DocumentEngine(identity: DocumentRetryAfterTests.identity, account: AccountID(0), recovering: nil)
        // t=0: the launch fetch is throttled with retryAfter 40 s.
        var launch = DocumentRetryAfterTests.context(at: 0)
        engine.handle(.launched, &launch)
        guard let id = DocumentRetryAfterTests.sends(launch.actions).first else { Issue.record("no fetch sent"); return }
        var answer = DocumentRetryAfterTests.context(at: 0)
        engine.handle(.response(ResponseEnvelope(requestID: id, device: DeviceID(index: 0), store: .documents,
                                                 result: .failed(.requestRateLimited(retryAfter: .seconds(40))))), &answer)
        // t=10s: the device crashed and restarts.
        var restarted = DocumentEngine(identity: DocumentRetryAfterTests.identity, account: AccountID(0), recovering: engine.durable)
        var relaunch = DocumentRetryAfterTests.context(at: 10)
        restarted.handle(.launched, &relaunch)
        #expect(DocumentRetryAfterTests.sends(relaunch.actions).isEmpty)
        #expect(relaunch.actions.contains { if case .setTimer(_, let after) = $0 { return after == .seconds(30) } else { return false } })
        // t=40s: the retry timer fires and the fetch goes out.
        var fired = DocumentRetryAfterTests.context(at: 40)
        restarted.handle(.timer(EngineTimer(kind: 1)), &fired)
        #expect(DocumentRetryAfterTests.sends(fired.actions).count == 1)
    }
}
