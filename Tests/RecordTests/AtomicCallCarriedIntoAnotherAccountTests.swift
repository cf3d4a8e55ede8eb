import Testing
import SyncLab

/// A call made while signed out goes to the account signed into next (SPEC §4.3). The sign-in
/// resets what the device showed of the first account, except what the call had already made
/// absent there; the device shows nothing of that account any more (the isolation rule), so
/// those leftovers are no part of an atomicity check (mixed seeds 1781 and 3675, found once the
/// fuzzer drew `records.saveAtomic` with `delete` and fields removed with `null`).
@Suite struct AtomicCallCarriedIntoAnotherAccountTests {
    static func run(_ steps: String) throws -> RunResult {
        try Scenario(text: #"""
        {"format": "synclab/1", "name": "carried", "seed": 3675, "accounts": ["main", "other"], "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "B"}], "steps": [
           {"at": "0s", "device": "B", "op": "account.signOut"},
        """# + steps + #"""
           {"at": "0s", "device": "B", "op": "account.signIn", "account": "other"}]}
        """#).run()
    }

    @Test("an atomic save-and-delete made signed out is whole in the next account: the first account's leftovers are no violation (mixed seed 3675)")
    func aSaveAndDeleteCarriedIntoTheNextAccountIsWhole() throws {
        let result = try Self.run(#"""
           {"at": "0s", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"body": "B1"}}]},
           {"at": "0s", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "B2"}}], "delete": ["r2"]},
        """#)
        // Before: "B showed part of atomic write B:2 while Z/r0.body still had the value that write replaced".
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a save that sets one field and removes another, made signed out, is whole in the next account (mixed seed 1781)")
    func aFieldRemovalCarriedIntoTheNextAccountIsWhole() throws {
        let result = try Self.run(#"""
           {"at": "0s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"title": "B1"}},
           {"at": "0s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"when": {"$date": "2026-11-26T08:00:00Z"}, "title": null}},
        """#)
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.anomalies)")
    }
}
