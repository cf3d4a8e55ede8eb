import Testing
import SyncLab

/// An atomic call the cloud refuses whole names the limit it broke (spec27).
@Suite struct AtomicRequestBytesLimitTests {
    private static func run(batch: Int, requestBytes: String) throws -> RunResult {
        try Scenario(text: """
        {"format": "synclab/1", "name": "atomic call over a request limit", "seed": 1,
         "limits": {"records": {"batch": \(batch), "requestBytes": "\(requestBytes)"}},
         "devices": [{"id": "A"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Z"},
           {"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z",
            "records": [{"type": "T", "name": "p", "fields": {"a": 1}}, {"type": "T", "name": "q", "fields": {"a": 1}}]}],
         "expect": {"quotaViolations": 1, "final": {"records": {"Z/p": null, "Z/q": null}}}}
        """).run()
    }

    @Test("an atomic call within the batch limit but over requestBytes is reported as breaking records.requestBytes")
    func overTheBytesNamesRequestBytes() throws {
        // Two records of 9 bytes each (field name 'a' plus an integer): 18 bytes > 10.
        let result = try Self.run(batch: 400, requestBytes: "10B")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        let violation = result.anomalies.first { $0.kind == "quotaViolation" }
        // Before: "it would break the records.batch limit", a limit of 400 the call was far within.
        #expect(violation?.explanation.hasSuffix("it would break the records.requestBytes limit.") == true, "\(String(describing: violation))")
        #expect(result.resultJSON.contains(#""limit": "records.requestBytes""#))
    }

    @Test("an atomic call over the batch limit is still reported as breaking records.batch")
    func overTheBatchNamesBatch() throws {
        let result = try Self.run(batch: 1, requestBytes: "2MB")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        let violation = result.anomalies.first { $0.kind == "quotaViolation" }
        #expect(violation?.explanation.hasSuffix("it would break the records.batch limit.") == true, "\(String(describing: violation))")
    }
}
