import Testing
@testable import SyncLabApps
import SyncLabProtocol

/// Every fetched record is copied and destroyed about four times on every device: a
/// `SyncRecord` is now one reference to a copy-on-write box of its parts, and still a value.
@Suite("A SyncRecord is one reference to its parts, and a value")
struct SyncRecordBoxTests {
    @Test("a record is one reference wide, so a copy is one retain")
    func oneReferenceWide() {
        #expect(MemoryLayout<SyncRecord>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<SyncRecord?>.size == MemoryLayout<AnyObject>.size)
    }

    @Test("a change to a copy leaves the original as it was, whatever part it changes")
    func copiesAreValues() {
        let server = SyncRecordCloudFieldsTests.server(SyncRecordCloudFieldsTests.fields)
        let original = SyncRecord(server: server)
        var changed = original
        #expect(changed == original)
        changed["title"] = .string("Eggs")
        changed["count"] = nil
        changed.recordType = "Errand"
        changed.changeTag = 10
        #expect(original["title"] == .string("Milk") && original["count"] == .integer(2))
        #expect(original.recordType == "Todo" && original.changeTag == 9 && original.removedFields.isEmpty)
        #expect(original.cloudStoredFields == server.fields)
        #expect(changed["title"] == .string("Eggs") && changed["count"] == nil)
        #expect(changed.recordType == "Errand" && changed.changeTag == 10 && changed.removedFields == ["count"])
        #expect(changed != original)
        // A record made here: its copy's change leaves it alone too.
        var made = SyncRecord(recordType: "Todo", recordID: .init(recordName: "a", zoneName: "Z"))
        made["n"] = .integer(1)
        var other = made
        other["n"] = .integer(2)
        other.adoptSystemFields(of: original)
        #expect(made["n"] == .integer(1) && made.recordChangeTag == nil)
        #expect(other["n"] == .integer(2) && other.recordChangeTag == "t9")
    }

    @Test("equal records in different boxes are equal and hash alike")
    func equalAcrossBoxes() {
        let server = SyncRecordCloudFieldsTests.server(SyncRecordCloudFieldsTests.fields)
        // The same version in another box of the cloud's (a copy changed to what it was).
        var again = server
        again.changeTag = 9
        let one = SyncRecord(server: server), two = SyncRecord(server: again)
        #expect(!one.sharesBox(with: two))
        #expect(one == two && one.hashValue == two.hashValue)
        var three = one
        three["title"] = .string("Milk")
        #expect(three != one, "a field set here loses its modification date")
    }
}
