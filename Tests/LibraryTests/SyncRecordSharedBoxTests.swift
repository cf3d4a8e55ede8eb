import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// A fetched version is converted once and shared by every device it is shown to (session 14):
/// `SyncRecord(server:)` keeps its box with the cloud's record (`ServerRecord.hostedForm`).
@Suite("A fetched version's record is made once and shared")
struct SyncRecordSharedBoxTests {
    @Test("two devices shown one version share one box; a change to one copy leaves the other as the version")
    func sharedUntilChanged() {
        let server = SyncRecordCloudFieldsTests.server(SyncRecordCloudFieldsTests.fields)
        let first = SyncRecord(server: server)
        var second = SyncRecord(server: server)
        #expect(first.sharesBox(with: second))
        second["title"] = .string("Eggs")
        #expect(!first.sharesBox(with: second))
        #expect(first["title"] == .string("Milk") && first.cloudStoredFields == server.fields)
        #expect(second["title"] == .string("Eggs") && second.cloudStoredFields == nil)
        // The next device shown the version still gets the version, not the changed copy.
        let third = SyncRecord(server: server)
        #expect(third.sharesBox(with: first) && third["title"] == .string("Milk"))
    }

    @Test("a server record changed in place is converted afresh, not read from the box of what it was")
    func changedInPlace() {
        var server = SyncRecordCloudFieldsTests.server(SyncRecordCloudFieldsTests.fields)
        let before = SyncRecord(server: server)
        #expect(before.changeTag == 9)
        // The only holder of the cloud's box: changed in place, its shared form goes with it.
        server.changeTag = 10
        server.fields["title"] = StoredField(value: .string("Eggs"), write: WriteID(device: DeviceID(4), sequence: 7), modifiedAt: LocalInstant(microseconds: 9))
        let after = SyncRecord(server: server)
        #expect(!after.sharesBox(with: before))
        #expect(after.changeTag == 10 && after["title"] == .string("Eggs"))
        #expect(before.changeTag == 9 && before["title"] == .string("Milk"))
    }

    @Test("a version with a removed field is shared too, its fields converted once")
    func removedFieldShared() {
        var fields = SyncRecordCloudFieldsTests.fields
        fields["count"] = StoredField(value: nil, write: WriteID(device: DeviceID(3), sequence: 8), modifiedAt: LocalInstant(microseconds: 1))
        let server = SyncRecordCloudFieldsTests.server(fields)
        let one = SyncRecord(server: server), two = SyncRecord(server: server)
        #expect(one.sharesBox(with: two))
        #expect(one.cloudStoredFields == nil && one.allKeys() == ["due", "tags", "title"])
        #expect(one["count"] == nil && one["title"] == .string("Milk"))
    }
}
