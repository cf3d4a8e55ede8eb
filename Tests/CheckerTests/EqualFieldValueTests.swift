import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// SPEC §4.3: equal values never conflict. A record field that ends with the value a write gave
/// it lost nothing, whichever of two equal writes the cloud kept.
@Suite("Checker: equal record field values")
struct EqualFieldValueTests {
    @Test("two devices setting a field to the same value: the one the cloud did not keep is not lost")
    func equalValueIsNotLost() {
        var builder = HistoryBuilder()
        let f = builder.key("Z/r", store: .records, field: "f")
        let g = builder.key("Z/r", store: .records, field: "g")
        let a = builder.write(0, at: 20, [(f, .field(.int(5)))], op: "record.save")
        let b = builder.write(1, at: 21, [(f, .field(.int(5))), (g, .field(.int(1)))], op: "record.save")
        builder.device(0, at: 40, .conflictShown(item: f, writes: [a, b], detail: "", resolvedBy: ConflictResolver("serverWins")))
        builder.fetch(0, at: 40, [(f, .field(.int(5)), b), (g, .field(.int(1)), b)])
        builder.final([ViewEntry(item: f, value: .field(.int(5)), write: b), ViewEntry(item: g, value: .field(.int(1)), write: b)])
        let report = builder.check()
        #expect(report.lostUpdates == 0)
    }

    @Test("a different value the cloud did not keep is still lost")
    func differentValueIsLost() {
        var builder = HistoryBuilder()
        let f = builder.key("Z/r", store: .records, field: "f")
        let a = builder.write(0, at: 20, [(f, .field(.int(4)))], op: "record.save")
        let b = builder.write(1, at: 21, [(f, .field(.int(5)))], op: "record.save")
        builder.device(0, at: 40, .conflictShown(item: f, writes: [a, b], detail: "", resolvedBy: ConflictResolver("serverWins")))
        builder.fetch(0, at: 40, [(f, .field(.int(5)), b)])
        builder.final([ViewEntry(item: f, value: .field(.int(5)), write: b)])
        #expect(builder.check().lostUpdates == 1)
    }
}
