import Testing
import SyncLab

/// Field removals (`null`) made while signed out, or refused for a limit, are the device's own
/// choice, not losses (records seeds 5 and 5400, found once the fuzzer drew removals with `null`).
@Suite struct SignedOutFieldRemovalTests {
    @Test("a field removed while signed out is carried into the next account: the removal is not lost to the old account's value (records seed 5)")
    func aRemovalCarriedIntoAnotherAccountIsNotLost() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "carried removal", "seed": 5, "accounts": ["main", "other"], "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "A"}, {"id": "B"}], "steps": [
           {"at": "0ms", "device": "A", "op": "account.signOut"},
           {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"title": "D1"}},
           {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"title": null}},
           {"at": "0ms", "device": "A", "op": "account.signIn", "account": "other"},
           {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"title": "F2"}}]}
        """#).run()
        // Before: "A's write A:2 … was lost: B:1 … replaced it without having seen it" (B:1 is in 'main').
        #expect(!result.anomalies.contains { $0.kind == "lostUpdate" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a removal the cloud refused for storage keeps what it replaced on purpose: that value is not lost (records seed 5400)")
    func aRemovalRefusedForALimitKeepsWhatItReplaced() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "refused removal", "seed": 5400, "accounts": ["main", "other"], "limits": {"storage": 969},
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [
           {"at": "0ms", "device": "A", "op": "account.signIn", "account": "other"},
           {"at": "0ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "B3"}}]},
           {"at": "0ms", "device": "A", "op": "account.signOut"},
           {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "A4"}},
           {"at": "228ms", "device": "A", "op": "account.signIn", "account": "main"},
           {"at": "228ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"photo": {"$asset": "2KB"}, "title": null}}]}
        """#).run()
        // Before: "A's write A:1 … was lost: the item is gone and nothing that removed it had seen this write".
        #expect(!result.anomalies.contains { $0.kind == "lostUpdate" }, "\(result.anomalies)")
        // The refusal itself is reported, and the refused change stays pending on A.
        #expect(result.anomalies.contains { $0.kind == "quotaViolation" && $0.item == "Z/r0" })
    }
    @Test("a removal carried into the account signed into next is what the device shows there: no part of another device's save beside it (records seed 6850)")
    func aCarriedRemovalIsShownInTheNextAccount() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "carried removal meets a save", "seed": 6850, "accounts": ["main", "other"], "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "D"}, {"id": "E"}], "steps": [
           {"at": "0ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "E5"}},
           {"at": "0ms", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "E4"}},
           {"at": "0ms", "device": "D", "op": "account.signIn", "account": "other"},
           {"at": "0ms", "device": "D", "op": "account.signOut"},
           {"at": "0ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "D2"}},
           {"at": "1ms", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": null}},
           {"at": "279ms", "device": "D", "op": "account.signIn", "account": "main"}]}
        """#).run()
        // Before: "D showed part of atomic write E:1 while Z/r0.title still had the value that write replaced".
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }
}
