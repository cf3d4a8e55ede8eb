import Testing
@testable import SyncLabApps
import SyncLabProtocol

/// Every device stores every fetched record by its `SyncRecord.ID`: the id keeps the hash of its
/// names, taken from the platform's `RecordID` (which computes it the same way) when a fetched
/// record is converted, so storing and looking it up hashes no string.
@Suite("SyncRecord.ID keeps the hash of its names")
struct SyncRecordIDHashTests {
    @Test("an id converted from the platform's takes its hash, and equals and hashes as one made from the names")
    func convertedTakesTheHash() {
        let platform = RecordID(zone: "Todos", name: "milk")
        let converted = SyncRecord.ID(platform)
        let made = SyncRecord.ID(recordName: "milk", zoneName: "Todos")
        #expect(converted.keptHash == platform.namesHash)
        #expect(made.keptHash == platform.namesHash)
        #expect(converted == made && converted.hashValue == made.hashValue)
        #expect(Set([converted, made]).count == 1)
        #expect(converted.protocolID == platform)
    }

    @Test("changing a name rehashes; ids differing in a name are unequal; order is by zone, then name, in UTF-8")
    func changesRehash() {
        var id = SyncRecord.ID(recordName: "milk", zoneName: "Todos")
        id.recordName = "eggs"
        #expect(id == SyncRecord.ID(recordName: "eggs", zoneName: "Todos") && id.keptHash == RecordID(zone: "Todos", name: "eggs").namesHash)
        id.zoneName = "Shop"
        #expect(id == SyncRecord.ID(recordName: "eggs", zoneName: "Shop") && id.hashValue == SyncRecord.ID(recordName: "eggs", zoneName: "Shop").hashValue)
        #expect(id != SyncRecord.ID(recordName: "eggs", zoneName: "Todos"))
        // Zone and name are not one string: "a" + "b/c" is not "a/b" + "c".
        #expect(SyncRecord.ID(recordName: "b/c", zoneName: "a") != SyncRecord.ID(recordName: "c", zoneName: "a/b"))
        let ids = [SyncRecord.ID(recordName: "b", zoneName: "Z"), SyncRecord.ID(recordName: "é", zoneName: "A"), SyncRecord.ID(recordName: "z", zoneName: "A")]
        #expect(ids.sorted().map(\.description) == ["A/z", "A/é", "Z/b"])
    }
}
