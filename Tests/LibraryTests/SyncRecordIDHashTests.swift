import Testing
@testable import SyncLabApps
import SyncLabProtocol

/// `SyncRecord.ID` keeps the hash of its names, computed once, and a fetched record's id takes
/// the cloud's `RecordID`'s: storing and looking up a record by id hashes no string.
@Suite("SyncRecord.ID keeps its names' hash, as RecordID does")
struct SyncRecordIDHashTests {
    @Test("an id made from names and one converted from the cloud's RecordID keep the same hash, RecordID's")
    func sameHashHoweverMade() {
        let names = [("Todos", "milk"), ("_defaultZone", "r10"), ("A", "é"), ("a/b", "c"), ("a", "b/c"), ("a zone name longer than fifteen bytes", "a record name longer than fifteen bytes")]
        for (zone, name) in names {
            let cloud = RecordID(zone: zone, name: name)
            let made = SyncRecord.ID(recordName: name, zoneName: zone)
            let converted = SyncRecord.ID(cloud)
            #expect(made.namesHash == cloud.namesHash && converted.namesHash == cloud.namesHash)
            #expect(made == converted && made.hashValue == converted.hashValue)
            #expect(converted.protocolID == cloud)
        }
    }

    @Test("a changed name is hashed again: the id equals and hashes as one made with the new names")
    func changedNamesRehash() {
        var id = SyncRecord.ID(recordName: "milk", zoneName: "Todos")
        id.zoneName = "Errands"
        #expect(id.namesHash == RecordID(zone: "Errands", name: "milk").namesHash)
        id.recordName = "eggs"
        let fresh = SyncRecord.ID(recordName: "eggs", zoneName: "Errands")
        #expect(id == fresh && id.hashValue == fresh.hashValue && id.namesHash == fresh.namesHash)
        #expect(id != SyncRecord.ID(recordName: "milk", zoneName: "Errands"))
        // Ids as dictionary keys and set members, however made.
        let store: SyncRecordStore = [fresh: SyncRecord(recordType: "Todo", recordID: fresh)]
        #expect(store[id]?.recordID == fresh && store[SyncRecord.ID(RecordID(zone: "Errands", name: "eggs"))] != nil)
        #expect(Set([id, fresh, SyncRecord.ID(RecordID(zone: "Errands", name: "eggs"))]).count == 1)
    }
}
