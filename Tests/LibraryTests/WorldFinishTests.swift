import Testing
import SyncLab

/// A finished world kept running silently: ops, `advance(by:)` and `runUntilQuiescent()` after
/// `finish()` ran on a run already judged, and a second `finish()` judged it again.
@Suite("A finished World refuses acts with a clear error")
struct WorldFinishTests {
    @Test("an op after finish() throws, naming finish(), and changes nothing")
    func opAfterFinishThrows() throws {
        let world = try World(devices: ["A"])
        try world.device("A").kvsSet("k", 1)
        let result = world.finish()
        #expect(world.isFinished)
        do {
            try world.device("A").kvsSet("k", 2)
            Issue.record("an op on a finished world must throw")
        } catch {
            #expect(error.problems.first?.message.contains("after finish()") == true, "\(error)")
        }
        #expect(world.device("A").view.kvs == ["k": 1])
        #expect(world.finish().metrics == result.metrics)
    }

    @Test("advance(by:) and runUntilQuiescent() after finish() move no time; the next op throws why")
    func timeAfterFinishRefused() throws {
        let world = try World(devices: ["A"])
        _ = world.finish()
        let end = world.now
        world.advance(by: .seconds(30))
        world.runUntilQuiescent()
        #expect(world.now == end)
        do {
            try world.device("A").kvsSet("k", 1)
            Issue.record("an op on a finished world must throw")
        } catch {
            #expect(error.problems.first?.message.contains("advance(by:) after finish()") == true, "\(error)")
        }
    }
}

/// `advance(by:)` with a negative duration did nothing without a word.
@Suite("World.advance(by:) refuses a negative duration")
struct WorldNegativeAdvanceTests {
    @Test("a negative advance moves no time, and the next op throws the refusal once")
    func negativeAdvanceRefused() throws {
        let world = try World(devices: ["A"])
        world.advance(by: .seconds(5))
        world.advance(by: .seconds(-3))
        #expect(world.now == .seconds(5))
        do {
            try world.device("A").kvsSet("k", 1)
            Issue.record("the refused advance must surface at the next op")
        } catch {
            #expect(error.problems.first?.message.contains("negative duration") == true, "\(error)")
        }
        #expect(world.device("A").view.kvs.isEmpty, "the refused op ran nothing")
        try world.device("A").kvsSet("k", 1)
        #expect(world.device("A").view.kvs == ["k": 1])
    }
}
