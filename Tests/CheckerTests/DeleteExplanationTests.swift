import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// SPEC §6: a lost update says which write replaced it and why. A record edit removed by a
/// delete that never saw it is lost because deletes carry no change tag (SPEC §4.3); the
/// sentence says so, and names a cascade or a zone deletion.
@Suite("Checker: explaining an edit a delete removed")
struct DeleteExplanationTests {
    private func lostExplanation(deleting names: [String], op: String) -> String? {
        var builder = HistoryBuilder()
        let child = builder.key("Z/c", store: .records)
        let title = builder.key("Z/c", store: .records, field: "t")
        let first = builder.write(0, at: 1, [(child, .recordExists(type: "T")), (title, .field(.string("milk")))], op: "record.save")
        builder.fetch(1, at: 2, [(child, .recordExists(type: "T"), first), (title, .field(.string("milk")), first)])
        let deleted = names.map { builder.key($0, store: .records) }
        _ = builder.write(0, at: 15, deleted.map { ($0, ItemValue.absent) } + [(title, .absent)], op: op)
        _ = builder.write(1, at: 20, [(title, .field(.string("eggs")))], op: "record.save")
        builder.final([])
        return builder.check().anomalies.first { $0.kind == .lostUpdate }?.explanation
    }

    @Test("a record delete: deleted it without having seen it, as a delete carries no change tag")
    func directDelete() {
        let text = lostExplanation(deleting: ["Z/c"], op: "record.delete")
        #expect(text?.contains("deleted it without having seen it, as a delete carries no change tag") == true)
    }

    @Test("a delete of the parent: by cascade along a deleteSelf reference")
    func cascade() {
        let text = lostExplanation(deleting: ["Z/p", "Z/c"], op: "record.delete")
        #expect(text?.contains("deleted it by cascade along a deleteSelf reference without having seen it") == true)
    }

    @Test("a zone deletion: with its zone")
    func zone() {
        let text = lostExplanation(deleting: ["Z/a", "Z/c"], op: "zone.delete")
        #expect(text?.contains("deleted it with its zone without having seen it") == true)
    }
}
