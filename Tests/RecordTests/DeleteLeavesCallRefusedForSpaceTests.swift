import Testing
import SyncLab

/// A delete replacing the pending save of an atomic call refused for space goes out on its own
/// (records seed 12953, session 16).
@Suite struct DeleteLeavesCallRefusedForSpaceTests {
    @Test("a delete of a record whose atomic call was refused for space reaches the cloud without waiting for room (records seed 12953)")
    func aDeleteLeavesACallRefusedForSpace() throws {
        // E's call saves r0 (a photo over the storage limit) and r1; it is refused for space and
        // stays pending. E then deletes r1: the delete stayed in the call's request, refused with
        // it for good, so the cloud kept r1 (D's version) while E showed it deleted.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 12953, "limits": {"storage": 1427}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "D"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "E", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "E2", "photo": {"$asset": "2KB"}}}, {"type": "Note", "name": "r1", "fields": {"title": "E2", "n": 2, "score": 0.625}}]}, {"at": "0ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"when": {"$date": "2026-11-20T08:00:00Z"}}}, {"at": "730ms", "device": "E", "op": "record.delete", "zone": "Z", "name": "r1"}], "expect": {"final": {"records": {"Z/r1": null}}}}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "resurrection" }, "\(result.anomalies)")
        // The cloud has E's delete: r1 is gone there, as on E.
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        // The call itself is still refused for space, reported, and shown on E alone (SPEC §4.3:
        // a change refused for a limit stays pending and shown; the campaign's promises excuse
        // that divergence): only r0 differs.
        #expect(result.anomalies.contains { $0.kind == "quotaViolation" && $0.item == "Z/r0" })
        #expect(result.anomalies.filter { $0.kind == "divergence" }.allSatisfy { $0.explanation.contains("Z/r0") && !$0.explanation.contains("Z/r1") })
    }
}
