import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The device side, driven directly: app calls and events in, actions out.
@Suite struct KVSEngineTests {
    typealias T = KVSTest

    // MARK: Local writes and the upload timer

    @Test(arguments: [UInt64(1), 2, 3, 42, 9_999])
    func aLocalWriteIsVisibleAtOnceAndStartsTheUploadTimerWithJitter(seed: UInt64) {
        var engine = T.launchedEngine()
        var context = T.context(at: 1, seed: seed)
        let result = engine.set([(key: "theme", value: .string("dark"))], write: T.write(0, 1), &context)
        #expect(result == .accepted)
        #expect(T.visible(context.actions) == [T.Visible(key: "theme", value: .kvs(.string("dark")), write: T.write(0, 1), cause: .local)])
        let timers = T.timers(context.actions)
        #expect(timers.count == 1)
        if let (_, after) = timers.first {
            #expect(after >= .seconds(5) && after <= .milliseconds(5_500), "uploadDelay plus 0–10 % jitter, got \(after)")
        }
        #expect(T.sends(context.actions).isEmpty, "nothing goes out before the timer")
        #expect(T.notifications(context.actions).isEmpty, "no notification for the app's own write")
        #expect(T.view(engine) == ["theme": .string("dark")])
        #expect(!engine.isQuiescent)
    }

    @Test func laterWritesJoinTheRunningTimerWithoutRestartingIt() {
        var engine = T.launchedEngine()
        var first = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &first)
        var second = T.context(at: 3)
        _ = engine.set([(key: "b", value: .integer(2))], write: T.write(0, 2), &second)
        #expect(T.timers(second.actions).isEmpty)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(first.actions)[0].0), &fire)
        let uploads = T.uploads(fire.actions)
        #expect(uploads.count == 1)
        #expect(uploads.first?.1.map(\.write) == [T.write(0, 1), T.write(0, 2)], "every pending call, oldest first, each on its own")
        #expect(uploads.first?.1.first?.timestamp == T.at(1), "stamped with the local clock at the call")
    }

    @Test func aSuccessfulUploadEmptiesTheQueue() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &context)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(context.actions)[0].0), &fire)
        let id = T.uploads(fire.actions)[0].0
        #expect(!engine.isQuiescent, "a request is in flight")
        var answer = T.context(at: 7)
        engine.handle(.response(T.ok(id, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        #expect(engine.pendingWrites().isEmpty)
        #expect(engine.isQuiescent)
        #expect(T.visible(answer.actions).isEmpty && T.notifications(answer.actions).isEmpty)
    }

    @Test func aWriteMadeDuringAnUploadWaitsForItsOwnTimerAfterTheAnswer() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &context)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(context.actions)[0].0), &fire)
        var during = T.context(at: 6)
        _ = engine.set([(key: "b", value: .integer(2))], write: T.write(0, 2), &during)
        #expect(T.timers(during.actions).isEmpty && T.sends(during.actions).isEmpty, "one request at a time")
        var answer = T.context(at: 7)
        engine.handle(.response(T.ok(T.uploads(fire.actions)[0].0, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        #expect(engine.pendingWrites().map(\.0) == [T.write(0, 2)])
        let timers = T.timers(answer.actions)
        #expect(timers.count == 1 && timers[0].1 >= .seconds(5) && timers[0].1 <= .milliseconds(5_500))
        #expect(!engine.isQuiescent)
    }

    @Test func failedUploadsRetryWithDoublingBackoffAndHonourRetryAfter() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &context)
        var step = T.context(at: 6)
        engine.handle(.timer(T.timers(context.actions)[0].0), &step)
        var id = T.uploads(step.actions)[0].0
        var delays: [SimDuration] = []
        let errors: [TransportError] = [.networkFailure, .serviceUnavailable(retryAfter: .zero), .requestRateLimited(retryAfter: .seconds(30)), .networkFailure]
        for error in errors {
            var failure = T.context(at: 40)
            engine.handle(.response(T.failed(id, error)), &failure)
            let timers = T.timers(failure.actions)
            #expect(timers.count == 1)
            delays.append(timers[0].1)
            #expect(!engine.isQuiescent, "the work is still to do")
            var retry = T.context(at: 80)
            engine.handle(.timer(timers[0].0), &retry)
            let uploads = T.uploads(retry.actions)
            #expect(uploads.count == 1, "the retry re-sends the same calls")
            #expect(uploads.first?.1.map(\.write) == [T.write(0, 1)])
            id = uploads.first?.0 ?? 0
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(30), .seconds(8)])
        #expect(engine.pendingWrites().map(\.0) == [T.write(0, 1)])
    }

    // MARK: Offline, reconnect, crash

    @Test func offlineWritesWaitForTheNetworkThenUploadAndFetch() {
        var engine = T.launchedEngine()
        var offline = T.context(at: 1)
        engine.handle(.connectivity(online: false), &offline)
        var write = T.context(at: 2)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &write)
        #expect(T.timers(write.actions).isEmpty && T.sends(write.actions).isEmpty)
        #expect(engine.isQuiescent, "waiting for the network does not count as work")
        var online = T.context(at: 60)
        engine.handle(.connectivity(online: true), &online)
        let uploads = T.uploads(online.actions)
        #expect(uploads.count == 1, "the pending call goes out at once on reconnect")
        var answer = T.context(at: 61)
        engine.handle(.response(T.ok(uploads[0].0, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        #expect(T.fetches(answer.actions).count == 1, "then it fetches")
    }

    @Test func aSendThatFailsBecauseTheDeviceWentOfflineWaitsForReconnectAndBackoffStartsAfresh() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &context)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(context.actions)[0].0), &fire)
        var first = T.context(at: 7)
        engine.handle(.response(T.failed(T.uploads(fire.actions)[0].0, .networkFailure)), &first) // backoff 1 s
        var offline = T.context(at: 7)
        engine.handle(.connectivity(online: false), &offline)
        var retry = T.context(at: 8)
        engine.handle(.timer(T.timers(first.actions)[0].0), &retry)
        #expect(T.sends(retry.actions).isEmpty, "no sends while offline")
        var online = T.context(at: 30)
        engine.handle(.connectivity(online: true), &online)
        let id = T.uploads(online.actions).first?.0 ?? 0
        var failure = T.context(at: 31)
        engine.handle(.response(T.failed(id, .networkFailure)), &failure)
        #expect(T.timers(failure.actions).map(\.1) == [.seconds(1)], "backoff starts afresh after reconnecting")
    }

    @Test func networkUnavailableWhileOfflineSetsNoRetryTimerAndReconnectResumes() {
        var engine = T.launchedEngine()
        var sync = T.context(at: 1)
        engine.synchronize(&sync)
        let id = T.fetches(sync.actions).first?.0 ?? 0
        var offline = T.context(at: 1)
        engine.handle(.connectivity(online: false), &offline)
        var failure = T.context(at: 1)
        engine.handle(.response(T.failed(id, .networkUnavailable)), &failure)
        #expect(T.timers(failure.actions).isEmpty)
        #expect(engine.isQuiescent, "blocked on the network only")
        var online = T.context(at: 20)
        engine.handle(.connectivity(online: true), &online)
        #expect(T.fetches(online.actions).count == 1)
    }

    @Test func pendingCallsSurviveACrashAndAreUploadedAfterRelaunch() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1)), (key: "b", value: .integer(2))], write: T.write(0, 1), &context)
        let saved = engine.durable
        // t=2s: crash; volatile memory (timers, in-flight state) is gone.
        var recovered = KVSEngine(identity: T.identity(), account: T.main, recovering: saved)
        #expect(T.view(recovered) == ["a": .integer(1), "b": .integer(2)])
        #expect(recovered.pendingWrites().map(\.1.name) == ["a", "b"])
        var launch = T.context(at: 10)
        recovered.handle(.launched, &launch)
        let uploads = T.uploads(launch.actions)
        #expect(uploads.first?.1.map(\.write) == [T.write(0, 1)])
        #expect(uploads.first.map { $0.0 > 1 } == true, "request ids continue from durable state")
        var answer = T.context(at: 11)
        recovered.handle(.response(T.ok(uploads[0].0, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        let fetch = T.fetches(answer.actions)
        #expect(fetch.count == 1 && fetch.first?.1 == 0, "a relaunch fetches from its saved cursor")
        var fetched = T.context(at: 12)
        recovered.handle(.response(T.ok(fetch[0].0, .changes([KVSChange(key: "z", value: .integer(9), write: T.write(1, 1), timestamp: T.at(5))], cursor: 3))), &fetched)
        #expect(T.notifications(fetched.actions).map(\.reason) == ["serverChange"], "a relaunch is not an initial sync")
    }
}
