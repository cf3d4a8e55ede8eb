import Testing
import SyncLab

/// A record delete still pending when the user deletes its zone is replaced in the queue by the
/// zone delete; if that zone delete is then discarded (app deletion, sign-out), the record
/// delete is reported discarded too (spec29, mixed seed 32554). Before, it was dropped
/// silently, stayed the device's last word on the record, and the record, never deleted in the
/// cloud, was reported a resurrection.
@Suite struct RecordZoneDeleteDiscardTests {
    static func check(_ result: RunResult, reason: String) {
        let lost = result.anomalies.filter { $0.kind == "lostUpdate" }
        #expect(lost.count == 1)
        #expect(lost.first?.item == "Z/r1")
        #expect(lost.first?.explanation.contains(reason) == true)
        #expect(!result.anomalies.contains { $0.kind == "resurrection" })
    }

    @Test("app deletion reports a record delete its discarded zone delete had replaced")
    func appDeletionReportsTheReplacedRecordDelete() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A record delete replaced by a zone delete, both discarded by app deletion", "seed": 1, "devices": [{"id": "D"}, {"id": "E"}], "steps": [{"at": "0s", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "hello"}}, {"at": "5s", "device": "D", "op": "airplane.on"}, {"at": "6s", "device": "D", "op": "record.delete", "zone": "Z", "name": "r1"}, {"at": "7s", "device": "D", "op": "zone.delete", "zone": "Z", "byUser": true}, {"at": "8s", "device": "D", "op": "app.delete"}]}
        """#).run()
        Self.check(result, reason: "discarded by app deletion")
    }

    @Test("sign-out reports a record delete its discarded zone delete had replaced")
    func signOutReportsTheReplacedRecordDelete() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A record delete replaced by a zone delete, both discarded by app deletion", "seed": 1, "devices": [{"id": "D"}, {"id": "E"}], "steps": [{"at": "0s", "device": "E", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "hello"}}, {"at": "5s", "device": "D", "op": "airplane.on"}, {"at": "6s", "device": "D", "op": "record.delete", "zone": "Z", "name": "r1"}, {"at": "7s", "device": "D", "op": "zone.delete", "zone": "Z", "byUser": true}, {"at": "8s", "device": "D", "op": "account.signOut"}]}
        """#).run()
        Self.check(result, reason: "discarded at sign-out")
    }
}
