import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// A record field set to `null` is a value like any other (SPEC §4.3 merge, §6): it can be lost.
/// Deleting a whole record that an edit then beats loses nothing (the edit wins).
@Suite("Checker: a record field's removal")
struct FieldRemovalLossTests {
    @Test("a field set to null that a merge's later edit beats is a lost update naming the edit")
    func removalBeatenByALaterEditIsLost() {
        var builder = HistoryBuilder()
        let record = builder.key("Z/r", store: .records)
        let c = builder.key("Z/r", store: .records, field: "c")
        let first = builder.write(0, at: 1, [(record, .recordExists(type: "T")), (c, .field(.int(0)))], op: "record.save")
        builder.fetch(1, at: 2, [(record, .recordExists(type: "T"), first), (c, .field(.int(0)), first)])
        let removal = builder.write(0, at: 15, [(record, .recordExists(type: "T")), (c, .absent)], op: "record.save")
        let edit = builder.write(1, at: 20, [(record, .recordExists(type: "T")), (c, .field(.int(9)))], op: "record.save")
        builder.device(0, at: 41, .lastWriterWins(item: c, chosen: edit, over: removal, rule: "record field modification date"))
        builder.fetch(0, at: 41, [(c, .field(.int(9)), edit)])
        builder.final([ViewEntry(item: record, value: .recordExists(type: "T"), write: edit),
                       ViewEntry(item: c, value: .field(.int(9)), write: edit)])
        let report = builder.check()
        #expect(report.lostUpdates == 1)
        let lost = report.anomalies.first { $0.kind == .lostUpdate }
        #expect(lost?.item == "Z/r" && lost?.field == "c")
        #expect(lost?.write == "A:2")
        #expect(lost?.replacedBy == "B:1")
    }

    @Test("a save that only sets a field to null, beaten by a later edit, is a lost update too")
    func removalOnlySaveIsLost() {
        var builder = HistoryBuilder()
        let record = builder.key("Z/r", store: .records)
        let u = builder.key("Z/r", store: .records, field: "u")
        let first = builder.write(0, at: 1, [(record, .recordExists(type: "T")), (u, .field(.int(1)))], op: "record.save")
        builder.fetch(1, at: 2, [(record, .recordExists(type: "T"), first), (u, .field(.int(1)), first)])
        let removal = builder.write(1, at: 11, [(u, .absent)], op: "record.save")
        let edit = builder.write(0, at: 20, [(u, .field(.int(5)))], op: "record.save")
        builder.device(1, at: 30, .lastWriterWins(item: u, chosen: edit, over: removal, rule: "record field modification date"))
        builder.fetch(1, at: 30, [(u, .field(.int(5)), edit)])
        builder.final([ViewEntry(item: record, value: .recordExists(type: "T"), write: first),
                       ViewEntry(item: u, value: .field(.int(5)), write: edit)])
        let report = builder.check()
        #expect(report.lostUpdates == 1)
        #expect(report.anomalies.first { $0.kind == .lostUpdate }?.write == "B:1")
    }

    @Test("deleting the whole record, beaten by an edit, is still no lost update")
    func recordDeleteBeatenByAnEditIsNotLost() {
        var builder = HistoryBuilder()
        let record = builder.key("Z/r", store: .records)
        let c = builder.key("Z/r", store: .records, field: "c")
        let first = builder.write(0, at: 1, [(record, .recordExists(type: "T")), (c, .field(.int(0)))], op: "record.save")
        builder.fetch(1, at: 2, [(record, .recordExists(type: "T"), first), (c, .field(.int(0)), first)])
        _ = builder.write(0, at: 15, [(record, .absent), (c, .absent)], op: "record.delete")
        let edit = builder.write(1, at: 20, [(record, .recordExists(type: "T")), (c, .field(.int(9)))], op: "record.save")
        builder.final([ViewEntry(item: record, value: .recordExists(type: "T"), write: edit),
                       ViewEntry(item: c, value: .field(.int(9)), write: edit)])
        #expect(builder.check().lostUpdates == 0)
    }

    @Test("a save that makes a deleted record again does not lose the fields the delete removed")
    func recreationAfterADeleteLosesNoRemoval() {
        var builder = HistoryBuilder()
        let record = builder.key("Z/r1", store: .records)
        let body = builder.key("Z/r1", store: .records, field: "body")
        let title = builder.key("Z/r1", store: .records, field: "title")
        let edit = builder.write(0, at: 1, [(record, .recordExists(type: "Note")), (body, .field(.string("A8")))], op: "record.save")
        _ = builder.write(1, at: 2, [(record, .recordExists(type: "Note")), (body, .field(.string("C4")))], op: "record.save")
        _ = builder.write(1, at: 3, [(body, .absent), (record, .absent)], op: "record.delete")
        // The re-creation names only title; the engine shows the body absent as its own write.
        let recreation = builder.write(1, at: 4, [(record, .recordExists(type: "Note")), (body, .absent), (title, .field(.string("C6")))],
                                       op: "record.save")
        builder.fetch(1, at: 9, [(body, .field(.string("A8")), edit)])
        builder.final([ViewEntry(item: record, value: .recordExists(type: "Note"), write: recreation),
                       ViewEntry(item: body, value: .field(.string("A8")), write: edit),
                       ViewEntry(item: title, value: .field(.string("C6")), write: recreation)])
        #expect(builder.check().lostUpdates == 0)
    }
}
