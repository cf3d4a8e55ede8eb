import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `kvs.increment` of a double past the 64-bit range: the app reads it as `longLong(forKey:)`
/// does, the nearest 64-bit integer, so an increment past it is refused (`invalidArgument`, the
/// value kept) instead of reading 0 and silently writing `by` over the user's number.
@Suite struct KVSIncrementOfLargeDoubleTests {
    typealias T = KVSTest

    @Test func aDoublePastTheLargestIntegerIsNotReadAsZero() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        #expect(engine.set([(key: "n", value: .double(1e20))], write: T.write(0, 1), &context) == .accepted)
        #expect(engine.increment(key: "n", by: 1, write: T.write(0, 2), &context) == .rejected(error: "invalidArgument"),
                "1e20 reads as Int64.max; one more is past the 64-bit range")
        #expect(T.view(engine) == ["n": .double(1e20)], "the refused increment keeps the user's value")
        #expect(engine.increment(key: "n", by: -1, write: T.write(0, 3), &context) == .accepted)
        #expect(T.view(engine) == ["n": .integer(Int64.max - 1)])
    }

    @Test func aDoubleBelowTheSmallestIntegerReadsAsTheSmallest() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        #expect(engine.set([(key: "n", value: .double(-1e20))], write: T.write(0, 1), &context) == .accepted)
        #expect(engine.increment(key: "n", by: -1, write: T.write(0, 2), &context) == .rejected(error: "invalidArgument"))
        #expect(T.view(engine) == ["n": .double(-1e20)])
        #expect(engine.increment(key: "n", by: 2, write: T.write(0, 3), &context) == .accepted)
        #expect(T.view(engine) == ["n": .integer(Int64.min + 2)])
    }

    @Test func aDoubleInRangeStillTruncatesTowardZero() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        _ = engine.set([(key: "p", value: .double(2.7)), (key: "m", value: .double(-2.7))], write: T.write(0, 1), &context)
        #expect(engine.increment(key: "p", by: 1, write: T.write(0, 2), &context) == .accepted)
        #expect(engine.increment(key: "m", by: 1, write: T.write(0, 3), &context) == .accepted)
        #expect(T.view(engine) == ["m": .integer(-1), "p": .integer(3)])
    }
}
