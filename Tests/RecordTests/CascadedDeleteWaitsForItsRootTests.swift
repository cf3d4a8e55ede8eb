import Testing
import SyncLab

/// A record deleted on this device only as the cascade of the same write's delete of a record
/// it references with `deleteSelf` waits for that delete's answer, in the private database too
/// (records seed 7471 as the campaign shrinks it once the stale-fetch fix is in, session 16).
@Suite struct CascadedDeleteWaitsForItsRootTests {
    @Test("a cascaded delete is not sent apart from the delete it came from: other devices never see the cascade in part (records seed 7471)")
    func aCascadedDeleteWaitsForItsRoot() throws {
        // D deletes r1; r0 references it with deleteSelf, so D deletes r0 too (one write, D:2).
        // r0's change was older in D's queue and, under a batch limit of 1, went up alone: B
        // fetched r0 gone by D:2 while r1, still in the cloud, had what D:2 removed.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 7471, "limits": {"storage": 1344, "records": {"batch": 1}}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "C"}, {"id": "D"}], "steps": [{"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"parent": {"$ref": "r1", "action": "deleteSelf"}}}, {"at": "0ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"photo": {"$asset": "1MB"}}}, {"at": "605ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"place": {"lat": -15.0, "lon": -174.0}}}, {"at": "1005ms", "device": "D", "op": "record.delete", "zone": "Z", "name": "r1"}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
