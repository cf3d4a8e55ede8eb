import Testing
import SyncLab

/// The cloud remembers the saves applied to a deleted record when the record is created again
/// (spec29, mixed seed 47576): a save re-sent after its answer was lost, applied
/// before the delete, is done and deleted since, whether or not the record exists again.
@Suite struct RecordResentSaveAfterRecreateTests {
    /// The main account's final records and fields, by item name.
    static func records(_ result: RunResult) -> [String: String] {
        guard case .object(let account)? = result.final["main"], case .object(let records)? = account["records"] else { return [:] }
        var fields: [String: String] = [:]
        for member in records.members {
            guard case .object(let record) = member.value else { continue }
            for field in record.members { fields["\(member.key).\(field.key)"] = "\(field.value)" }
        }
        return fields
    }

    @Test("a re-sent save applied before its record was deleted does not come back after the zone is deleted")
    func aResentSaveDoesNotReturnIntoTheZoneMadeAgain() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A save re-sent after its record was deleted, created again, and its zone deleted", "seed": 1, "devices": [{"id": "A"}, {"id": "C"}, {"id": "D"}, {"id": "E"}], "steps": [{"at": "0s", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "10s", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C"}}, {"at": "10075ms", "device": "C", "op": "airplane.on"}, {"at": "20s", "device": "D", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "30s", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A"}}, {"at": "40s", "device": "E", "op": "zone.delete", "zone": "Z"}, {"at": "60s", "device": "C", "op": "airplane.off"}]}
        """#).run()
        // Before: the zone's memory of r0 held only A's save; C's re-sent save re-created r0.
        #expect(Self.records(result).isEmpty)
        #expect(!result.anomalies.contains { $0.kind == "resurrection" })
    }

    @Test("a re-sent save applied before its record was deleted is not applied to the record made again")
    func aResentSaveDoesNotLandOnTheRecordMadeAgain() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A save re-sent after its record was deleted and created again", "seed": 1, "devices": [{"id": "A"}, {"id": "C"}, {"id": "D"}, {"id": "E"}], "steps": [{"at": "0s", "device": "*", "op": "zone.create", "zone": "Z"}, {"at": "10s", "device": "C", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "C"}}, {"at": "10075ms", "device": "C", "op": "airplane.on"}, {"at": "20s", "device": "D", "op": "record.delete", "zone": "Z", "name": "r0"}, {"at": "30s", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A"}}, {"at": "60s", "device": "C", "op": "airplane.off"}]}
        """#).run()
        // Before: C's save met A's new record as a conflict and its body was merged into it.
        #expect(Self.records(result).keys.sorted() == ["Z/r0.body"])
        #expect(Self.records(result)["Z/r0.body"]?.contains("A") == true)
        #expect(result.metrics.conflicts == 0)
    }
}
