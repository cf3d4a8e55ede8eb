import Testing
import SyncLab

/// A record deleted on this device only as the cascade of the same write's delete of a record
/// it references with `deleteSelf` goes up in the request that carries that delete, or after its
/// answer, never before it (records seeds 7471 as the campaign shrinks it once the stale-fetch
/// fix is in, and 784, session 16).
@Suite struct CascadedDeleteGoesWithItsRootTests {
    @Test("a cascaded delete is not sent before the delete it came from: other devices never see the cascade in part (records seed 7471)")
    func aCascadedDeleteIsNotSentBeforeItsRoot() throws {
        // D deletes r1; r0 references it with deleteSelf, so D deletes r0 too (one write, D:2).
        // r0's change was older in D's queue and, under a batch limit of 1, went up alone: B
        // fetched r0 gone by D:2 while r1, still in the cloud, had what D:2 removed.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 7471, "limits": {"storage": 1344, "records": {"batch": 1}}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "C"}, {"id": "D"}], "steps": [{"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"parent": {"$ref": "r1", "action": "deleteSelf"}}}, {"at": "0ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"photo": {"$asset": "1MB"}}}, {"at": "605ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"place": {"lat": -15.0, "lon": -174.0}}}, {"at": "1005ms", "device": "D", "op": "record.delete", "zone": "Z", "name": "r1"}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a cascaded delete the cloud does not cascade (its record no longer references the root there) still goes in the root's request (records seed 784)")
    func aCascadedDeleteGoesInItsRootsRequest() throws {
        // D still sees r1 referencing r0 with deleteSelf, but F has made r1 again without the
        // reference: the cloud's cascade of D's delete of r0 leaves r1, and D's own delete of r1
        // (the same write, D:2) must land with r0's. Held for r0's answer, it went up alone after
        // it, and F fetched r0 gone by D:2 beside r1 as D:2 had found it.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 784, "network": {"latency": {"dist": "lognormal", "median": "68ms", "sigma": 1.0}, "reorder": true}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}, {"id": "F"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "73ms", "device": "F", "op": "device.crash"}, {"at": "805ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "B1"}}, {"at": "1400ms", "device": "F", "op": "device.restart"}, {"at": "3024ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "B4", "body": "B4"}}]}, {"at": "6611ms", "op": "cloud.expireTokens"}, {"at": "12415ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "B3", "body": "B3", "n": 0}}]}, {"at": "20267ms", "device": "E", "op": "zone.delete", "zone": "Z"}, {"at": "29860ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"parent": {"$ref": "r0", "action": "deleteSelf"}}}, {"at": "42748ms", "device": "F", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "F4", "body": "F4", "n": 7}}]}, {"at": "237904ms", "op": "cloud.outage", "for": "43528ms"}, {"at": "237906ms", "device": "F", "op": "record.delete", "zone": "Z", "name": "r1"}, {"at": "237926ms", "device": "F", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "F2", "place": {"lat": -7.0, "lon": 129.0}}}]}, {"at": "282860ms", "device": "D", "op": "record.delete", "zone": "Z", "name": "r0"}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
