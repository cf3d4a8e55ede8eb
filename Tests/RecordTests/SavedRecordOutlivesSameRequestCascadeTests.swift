import Testing
import SyncLab

/// The cloud applies a request's deletes before its saves, so a record a delete's cascade reached
/// and the same request saved was made again after the cascade, and stays: the device leaves it
/// out of the cascade the answer lists (records seed 11521, session 16).
@Suite struct SavedRecordOutlivesSameRequestCascadeTests {
    @Test("a record re-uploaded in the request whose delete cascades to its old version stays on the device, as in the cloud (records seed 11521)")
    func aRecordSavedBesideItsParentsDeleteStays() throws {
        // B detaches r1 from r2 and deletes r2 in one atomic call; the cloud cascades r2's delete
        // to E's r1, B's save meets unknownItem, and B re-uploads r1 as new beside r2's delete.
        // The cloud keeps the new r1; B, applying r2's cascade after its save, dropped it.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 11521, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "E"}, {"id": "G"}], "steps": [{"at": "0ms", "device": "G", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"n": 2}}, {"at": "169ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Task", "name": "r1", "fields": {"parent": {"$ref": "r2", "action": "deleteSelf"}}}, {"at": "544ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Task", "name": "r1", "fields": {"title": "B4", "body": "B4", "n": 4, "parent": {"$ref": "r1", "action": "none"}}}], "delete": ["r2"]}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "divergence" }, "\(result.anomalies)")
        #expect(!result.anomalies.contains { $0.kind == "resurrection" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
