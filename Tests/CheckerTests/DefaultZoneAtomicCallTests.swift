import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// A `records.saveAtomic` into `_defaultZone` is applied record by record (SPEC §4.3: the default
/// zone has no atomic batches), so records of it shown apart are no `atomicityViolation`; a
/// record shown in part still is, and a custom zone's call stays atomic across its records.
@Suite("Default-zone atomic call")
struct DefaultZoneAtomicCallTests {
    /// Device 0 saves `ZONE/a.v` and `ZONE/b.v` (and `ZONE/a.w`) in one `records.saveAtomic`;
    /// device 1 had shown the earlier values and then shows only the listed items of the call.
    private func violations(zone: String, shownByB: [String]) -> Int {
        var builder = HistoryBuilder()
        let av = builder.key("\(zone)/a", store: .records, field: "v")
        let aw = builder.key("\(zone)/a", store: .records, field: "w")
        let bv = builder.key("\(zone)/b", store: .records, field: "v")
        let keys = ["a.v": av, "a.w": aw, "b.v": bv]
        let first = builder.write(0, at: 0, [(av, .field(.int(0))), (aw, .field(.int(0))), (bv, .field(.int(0)))], op: "records.saveAtomic")
        builder.fetch(1, at: 1, [(av, .field(.int(0)), first), (aw, .field(.int(0)), first), (bv, .field(.int(0)), first)])
        let second = builder.write(0, at: 5, [(av, .field(.int(1))), (aw, .field(.int(1))), (bv, .field(.int(1)))], op: "records.saveAtomic")
        builder.fetch(1, at: 6, shownByB.map { (keys[$0]!, .field(.int(1)), second) })
        builder.final([])
        return builder.check().count(of: .atomicityViolation)
    }

    @Test("records of a default-zone call shown apart are no violation")
    func recordsApartInTheDefaultZone() {
        #expect(violations(zone: RecordID.defaultZone, shownByB: ["a.v", "a.w"]) == 0)
    }

    @Test("a record of a default-zone call shown in part is a violation")
    func recordInPartInTheDefaultZone() {
        #expect(violations(zone: RecordID.defaultZone, shownByB: ["a.v"]) == 1)
    }

    @Test("records of a custom zone's call shown apart are a violation")
    func recordsApartInACustomZone() {
        #expect(violations(zone: "Todos", shownByB: ["a.v", "a.w"]) == 1)
    }
}
