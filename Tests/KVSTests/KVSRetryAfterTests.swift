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

/// `app.foreground` cuts the backoff short, but not its level: only reconnecting resets it.
@Suite("KVS engine: foreground during the backoff")
struct KVSForegroundBackoffTests {
    @Test func aForegroundFetchesAtOnceAndAFurtherFailureKeepsDoubling() {
        var engine = KVSTest.launchedEngine()
        var first = KVSTest.context(at: 1)
        engine.synchronize(&first)
        guard let (id1, _) = KVSTest.sends(first.actions).first else { Issue.record("no fetch sent"); return }
        var failure1 = KVSTest.context(at: 1)
        engine.handle(.response(KVSTest.failed(id1, .networkFailure)), &failure1)
        #expect(KVSTest.timers(failure1.actions).map(\.1) == [.seconds(1)])
        // The retry fires, fails again: 2 s.
        var fired = KVSTest.context(at: 2)
        engine.handle(.timer(EngineTimer(kind: 2)), &fired)
        guard let (id2, _) = KVSTest.sends(fired.actions).first else { Issue.record("no retry sent"); return }
        var failure2 = KVSTest.context(at: 2)
        engine.handle(.response(KVSTest.failed(id2, .networkFailure)), &failure2)
        #expect(KVSTest.timers(failure2.actions).map(\.1) == [.seconds(2)])
        // A foreground before the 2 s are up fetches at once and cancels the armed timer…
        var foreground = KVSTest.context(at: 3)
        engine.handle(.foreground, &foreground)
        #expect(KVSTest.fetches(foreground.actions).count == 1)
        #expect(foreground.actions.contains { if case .cancelTimer = $0 { return true }; return false })
        // …and when that fetch fails too, the backoff goes on doubling: 4 s, not 1 s.
        guard let (id3, _) = KVSTest.sends(foreground.actions).first else { return }
        var failure3 = KVSTest.context(at: 3)
        engine.handle(.response(KVSTest.failed(id3, .networkFailure)), &failure3)
        #expect(KVSTest.timers(failure3.actions).map(\.1) == [.seconds(4)])
    }
}
