import Testing
import SyncLab

/// A fetched deletion is one part of its write, like a fetched version: left alone or held, it
/// takes the rest of that write with it (records seeds 7471 and 7267, session 16).
@Suite struct FetchedDeletionWaitsWithItsWriteTests {
    @Test("a deletion left alone by a stale fetch leaves alone the other records its cascade deleted (records seed 7471)")
    func aStaleFetchLeavesAloneTheWholeCascade() throws {
        // B deletes r1 during an outage; r0 references r1 with deleteSelf, so the cloud deletes
        // both (one write, B:2). A's save of r0 is answered while A's fetch is on its way: the
        // fetch may predate it, so r0's deletion is left alone — and r1's was shown, A showing
        // B:2 on r1 while r0 still had what B:2 removed.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "stale cascade", "seed": 7471, "network": {"latency": {"dist": "uniform", "min": "21ms", "max": "160ms"}},
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "steps": [
           {"at": "53ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"n": 2}},
           {"at": "214ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"parent": {"$ref": "r1", "action": "deleteSelf"}}},
           {"at": "366ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A4"}},
           {"at": "1374ms", "op": "cloud.outage", "for": "1842ms"},
           {"at": "1529ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r1"},
           {"at": "1529ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 3}},
           {"at": "2017ms", "op": "cloud.outage", "for": "1ms"}]}
        """#).run()
        // Before: "A showed part of atomic write B:2 while Z/r0 still had the value that write replaced."
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
        // The unconditional cascade still removes A's concurrent edits of r0, reported as such.
        #expect(result.anomalies.filter { $0.kind == "lostUpdate" }.map { "\($0.item).\($0.field ?? "")" } == ["Z/r0.body", "Z/r0.n"])
    }

    @Test("a deletion made by the same atomic call as a version held for a save in doubt waits with it (records seed 7267)")
    func aDeletionWaitsWithItsHeldCall() throws {
        // Ann's iPhone saves r0 and deletes r2 in one atomic call. Work/iPad's own save of r0 is
        // in doubt when its fetch brings the call: r0's version waits for that save's answer, and
        // r2's deletion was shown at once — r2 gone beside r0's body from before the call.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "held call with a delete", "seed": 7267, "network": {"latency": {"dist": "uniform", "min": "23ms", "max": "169ms"}},
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "Work/iPad"}, {"id": "Ann's iPhone"}, {"id": "E"}], "steps": [
           {"at": "0ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"place": {"lat": -32.0, "lon": 46.0}}},
           {"at": "1047ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A1"}},
           {"at": "120028ms", "device": "Ann's iPhone", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "C1", "n": 3, "score": 2.875}}], "delete": ["r2"]},
           {"at": "120409ms", "device": "Work/iPad", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "B2", "n": 4, "parent": {"$ref": "r0", "action": "deleteSelf"}}}]}]}
        """#).run()
        // Before: "Work/iPad showed part of atomic write Ann's iPhone:1 while Z/r0.body still had the value that write replaced."
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
