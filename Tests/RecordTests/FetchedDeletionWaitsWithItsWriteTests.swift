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

    @Test("a held deletion gives way to a later save of its record by this device: released after that save's answer, it removed the record made again (records seed 5752)")
    func aHeldDeletionGivesWayToALaterSave() throws {
        // The iPad deletes r0 and, much later, saves it again; a fetch then brings r0's deletion
        // while the iPad's save of r1 is in doubt. Held until that answer, the deletion was
        // applied after the new r0's save had been answered: the iPad showed r0 gone while the
        // cloud had it (divergence). A deletion is held only for a record with nothing pending.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 5752, "accounts": ["main", "other"], "network": {"latency": {"dist": "pareto", "scale": "15ms", "shape": 2.9}, "loss": 0.04}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "iPad Pro 12.9\""}, {"id": "Ann's iPhone"}], "steps": [{"at": "0ms", "device": "iPad Pro 12.9\"", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"tags": []}}, {"at": "206ms", "device": "Ann's iPhone", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"blob": {"$data": "3q2+7w=="}}}, {"at": "600ms", "device": "iPad Pro 12.9\"", "op": "zone.delete", "zone": "Z", "byUser": true}, {"at": "624ms", "device": "iPad Pro 12.9\"", "op": "device.crash"}, {"at": "642ms", "device": "iPad Pro 12.9\"", "op": "device.restart"}, {"at": "679ms", "device": "iPad Pro 12.9\"", "op": "device.crash"}, {"at": "777ms", "device": "iPad Pro 12.9\"", "op": "device.restart"}, {"at": "1014ms", "device": "iPad Pro 12.9\"", "op": "account.signOut"}, {"at": "1515ms", "device": "iPad Pro 12.9\"", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A4"}}, {"at": "2469ms", "device": "iPad Pro 12.9\"", "op": "account.signIn", "account": "other"}, {"at": "53212ms", "device": "iPad Pro 12.9\"", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"n": 8}}, {"at": "53832ms", "device": "iPad Pro 12.9\"", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "222494ms", "device": "iPad Pro 12.9\"", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "A"}}, {"at": "222522ms", "device": "iPad Pro 12.9\"", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"n": 9}}]}
        """#).run()
        #expect(result.metrics.converged, "\(result.anomalies)")
        #expect(!result.anomalies.contains { $0.kind == "divergence" })
    }

    @Test("a deletion is held for a shared write only, not for the fetch answer's snapshot (records seed 312)")
    func aDeletionIsNotHeldForTheSnapshotAlone() throws {
        // B's fetch brings D's delete of r2 while B's save of r1 is in doubt. Held with the
        // answer's other versions, r2 stayed shown while E's later call (which deleted r2 again
        // and saved r0) showed: B showed E's call in part.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 312, "network": {"latency": {"dist": "uniform", "min": "5ms", "max": "57ms"}, "loss": 0.13}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"n": 7}}, {"at": "488ms", "device": "B", "op": "account.signOut"}, {"at": "492ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"body": "C1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "n": 6, "blob": {"$data": "AA=="}}}]}, {"at": "52114ms", "device": "B", "op": "account.signIn", "account": "main"}, {"at": "53746ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"n": 1}}, {"at": "111202ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "C3"}}, {"at": "115165ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"n": 6}}, {"at": "159621ms", "device": "D", "op": "record.delete", "zone": "Z", "name": "r2"}, {"at": "159835ms", "device": "E", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "E3", "score": 1.625}}], "delete": ["r2"]}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a fetched deletion of a record whose save is in doubt waits for that save's answer, and the rest of its cascade with it (records seed 8831)")
    func aDeletionMeetingASaveInDoubtWaitsForItsAnswer() throws {
        // A's merged save of r1 is applied but its answer is lost; B fetches it and deletes r1,
        // which cascades to r0 (B:3). A's fetch brings both deletions while its save is in
        // doubt: r1 was re-uploaded at once (an edit winning over a delete that had seen it)
        // and r0 shown gone by B:3 beside r1's title that B:3 had removed.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "t", "seed": 8831, "network": {"latency": {"dist": "lognormal", "median": "100ms", "sigma": 2.0}, "loss": 0.05}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}], "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "0ms", "device": "E", "op": "zone.delete", "zone": "Z", "byUser": true}, {"at": "6738ms", "device": "A", "op": "airplane.on"}, {"at": "48342ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"parent": {"$ref": "r1", "action": "deleteSelf"}}}, {"at": "48342ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B6"}}, {"at": "48343ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "A1"}}, {"at": "91830ms", "device": "A", "op": "airplane.off"}, {"at": "101903ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r1"}]}
        """#).run()
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" || $0.kind == "resurrection" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
