import Testing
@testable import SyncLabApps
import SyncLabProtocol

/// `SyncRecord.ID`'s order compares the names in place (it went through two `RecordID`s, which
/// hash their names when made): the same order as the platform's ids.
@Suite("SyncRecord.ID orders as the platform's RecordID does")
struct SyncRecordIDOrderTests {
    @Test("order is by zone, then name, in UTF-8, as RecordID's; zone and name are not one string")
    func orderAsRecordID() {
        let names = [("Z", "b"), ("A", "é"), ("A", "z"), ("A", "Z"), ("a", "b/c"), ("a/b", "c"), ("_defaultZone", "r10"), ("_defaultZone", "r9")]
        let ids = names.map { SyncRecord.ID(recordName: $0.1, zoneName: $0.0) }
        #expect(ids.sorted().map(\.protocolID) == ids.map(\.protocolID).sorted())
        #expect(ids.sorted().map(\.description) == ["A/Z", "A/z", "A/é", "Z/b", "_defaultZone/r10", "_defaultZone/r9", "a/b/c", "a/b/c"])
        #expect(SyncRecord.ID(recordName: "b/c", zoneName: "a") != SyncRecord.ID(recordName: "c", zoneName: "a/b"))
        #expect(!(ids[0] < ids[0]))
    }
}
