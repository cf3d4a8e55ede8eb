import Testing
import SyncLab

/// A record field's final value is judged in the field's own account first (records seed 4785,
/// session 16): the same record name in another account is another record.
@Suite struct RemovalInItsOwnAccountTests {
    @Test("a field removed in one account is not lost to the same record name's value in another account (records seed 4785)")
    func aRemovalSurvivingInItsAccountIsNotLost() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "removal in its own account", "seed": 4785, "accounts": ["main", "other"],
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C"}], "steps": [
           {"at": "0ms", "device": "C", "op": "account.signIn", "account": "other"},
           {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "C6"}},
           {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "A1"}},
           {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": null}},
           {"at": "462ms", "device": "C", "op": "account.signOut"}]}
        """#).run()
        // Before: "C's write C:2 … was lost: the item is gone and nothing that removed it had seen this write".
        #expect(!result.anomalies.contains { $0.kind == "lostUpdate" }, "\(result.anomalies)")
        #expect(result.metrics.converged)
    }

    @Test("a removal its own account does not end with is still lost")
    func aRemovalOverwrittenInItsAccountIsLost() throws {
        // C removes the title in 'other' while D, also in 'other', sets it without having seen
        // the removal and later: D's title wins, and C's removal is lost there as before.
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "removal lost in its own account", "accounts": ["main", "other"],
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C", "account": "other"}, {"id": "D", "account": "other"}], "steps": [
           {"at": "0ms", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "C6"}},
           {"at": "0ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "A1"}},
           {"at": "2s", "device": "C", "op": "airplane.on"},
           {"at": "2s", "device": "D", "op": "airplane.on"},
           {"at": "3s", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": null}},
           {"at": "4s", "device": "D", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "D1"}},
           {"at": "5s", "device": "C", "op": "airplane.off"},
           {"at": "6s", "device": "D", "op": "airplane.off"}]}
        """#).run()
        #expect(result.anomalies.contains { $0.kind == "lostUpdate" && $0.item == "Z/r1" && $0.field == "title" && $0.write == "C:2" }, "\(result.anomalies)")
    }
}
