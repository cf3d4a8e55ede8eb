import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The KVS engine's invariants are `precondition`s: a host or cloud that breaks them crashes the
/// engine (and a fuzzer finds it) instead of corrupting its state quietly.
@Suite struct KVSInvariantTests {
    @Test func aFetchAnswerThatMovesTheCursorBackStopsTheEngine() async {
        await #expect(processExitsWith: .failure) {
            var engine = KVSTest.launchedEngine(changes: [], cursor: 5)
            var sync = KVSTest.context(at: 30)
            engine.synchronize(&sync)
            var answer = KVSTest.context(at: 30)
            engine.handle(.response(KVSTest.ok(KVSTest.fetches(sync.actions)[0].0, .changes([], cursor: 2))), &answer)
        }
    }

    @Test func anUploadAnswerDecidingACallItDidNotCarryStopsTheEngine() async {
        await #expect(processExitsWith: .failure) {
            var engine = KVSTest.launchedEngine(changes: [], cursor: 0)
            var call = KVSTest.context(at: 1)
            _ = engine.set([(key: "a", value: .integer(1))], write: KVSTest.write(0, 1), &call)
            var fire = KVSTest.context(at: 6)   // t=6s: the upload timer fires
            engine.handle(.timer(KVSTest.timers(call.actions)[0].0), &fire)
            guard let upload = KVSTest.uploads(fire.actions).first else { return }   // no upload: the test fails (no exit)
            var answer = KVSTest.context(at: 2)
            engine.handle(.response(KVSTest.ok(upload.0, .uploaded(accepted: [KVSTest.write(0, 9)], rejected: [], superseded: []))), &answer)
        }
    }

    @Test func anUploadAnswerDecidingItsOwnCallsIsFine() {
        var engine = KVSTest.launchedEngine(changes: [], cursor: 0)
        var call = KVSTest.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: KVSTest.write(0, 1), &call)
        var fire = KVSTest.context(at: 6)   // t=6s: the upload timer fires
        engine.handle(.timer(KVSTest.timers(call.actions)[0].0), &fire)
        let upload = KVSTest.uploads(fire.actions).first
        #expect(upload?.1.map(\.write) == [KVSTest.write(0, 1)])
        var answer = KVSTest.context(at: 2)
        if let upload { engine.handle(.response(KVSTest.ok(upload.0, .uploaded(accepted: [KVSTest.write(0, 1)], rejected: [], superseded: []))), &answer) }
        #expect(engine.durable.pending.isEmpty)
    }
}
