import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// SPEC §4: retries are never earlier than a `retryAfter` the cloud gave, a crash included.
@Suite("KVS engine: retryAfter across a crash")
struct KVSRetryAfterTests {
    @Test func aRestartedEngineWaitsOutTheRetryAfterTheCloudGaveBeforeTheCrash() {
        var engine = KVSTest.launchedEngine()
        // t=1s: a fetch is throttled with retryAfter 40 s.
        var ask = KVSTest.context(at: 1)
        engine.handle(.foreground, &ask)
        guard let (id, _) = KVSTest.sends(ask.actions).first else { Issue.record("no fetch sent"); return }
        var answer = KVSTest.context(at: 1)
        engine.handle(.response(KVSTest.failed(id, .requestRateLimited(retryAfter: .seconds(40)))), &answer)
        // t=11s: the device crashed and restarts.
        var restarted = KVSEngine(identity: KVSTest.identity(), account: KVSTest.main, recovering: engine.durable)
        var launch = KVSTest.context(at: 11)
        restarted.handle(.launched, &launch)
        #expect(KVSTest.sends(launch.actions).isEmpty)
        #expect(KVSTest.timers(launch.actions).contains { $0.1 == .seconds(30) })
        // t=41s: the retry timer fires and the fetch goes out.
        var fired = KVSTest.context(at: 41)
        restarted.handle(.timer(EngineTimer(kind: 2)), &fired)
        #expect(KVSTest.fetches(fired.actions).count == 1)
    }
}
