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

    @Test("a delete made while the call goes up, refused for space, leaves the call once the refusal is certain (records seed 14458)")
    func aDeleteMadeWhileTheCallIsOnTheWireLeavesIt() throws {
        // B's call saves r2 (over the storage limit) and r0; while it is on the wire B deletes r0:
        // the delete stands in for r0's save in doubt. The call comes back refused whole for
        // space, never applied: the delete stayed in it, refused again and again, and the cloud
        // kept r0 (a resurrection of B:1 after B's delete, and a divergence).
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 14458, "limits": {"storage": 254}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "B"}], "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 8}}, {"at": "265ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"body": "B11xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "n": 6}}, {"type": "Note", "name": "r0", "fields": {"title": "B11", "body": "B11", "blob": {"$data": "AA=="}, "n": null}}]}, {"at": "315ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r0"}], "expect": {"final": {"records": {"Z/r0": null}}}}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "resurrection" }, "\(result.anomalies)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        #expect(result.anomalies.contains { $0.kind == "quotaViolation" && $0.item == "Z/r2" })
    }
}
