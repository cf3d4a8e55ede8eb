import Testing
import SyncLabResult

/// Session 7, a refusal no fetch answers (docs/FUZZING.md): where the version a
/// `serverRecordChanged` carried must not be resolved against. Both were findings of a first
/// version of that rule (records seeds 4122 and 7345).
extension FuzzFindingTests {
    @Test("a version refused in one account is never resolved against in the next (records seed 4122)")
    func refusedVersionStaysWithItsAccount() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 4122, "accounts": ["main", "other"], "network": {"latency": {"dist": "uniform", "min": "25ms", "max": "111ms"}, "loss": 0.24}, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0ms", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "A6", "body": "A6"}}]}, {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "B8"}}, {"at": "37114ms", "device": "A", "op": "account.signOut"}, {"at": "37114ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A5"}}, {"at": "37114ms", "device": "A", "op": "account.signIn", "account": "other"}], "expect": {"noAnomalies": ["isolationViolation"]}}
        """#)
    }

    @Test("a version refused before its record was deleted does not come back when the fetch leaves the record out (records seed 7345)")
    func refusedVersionOfADeletedRecordIsDropped() throws {
        _ = try run(#"""
        {"format": "synclab/1", "name": "t", "seed": 7345, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "D"}], "steps": [{"at": "0ms", "device": "A", "op": "airplane.on"}, {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A1"}}, {"at": "287ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "D2"}}, {"at": "512ms", "device": "D", "op": "record.delete", "zone": "Z", "name": "r1"}], "expect": {"converged": true, "noAnomalies": ["divergence"]}}
        """#)
    }
}
