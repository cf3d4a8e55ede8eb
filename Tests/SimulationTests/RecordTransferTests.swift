import Testing
@testable import SyncLabSimulation

/// Record requests carry their size: a modify request's records count on the wire as they count
/// against the records quota (field names plus values, assets apart), and take transfer time.
@Suite("Record transfers")
struct RecordTransferTests {
    // A saves one record with a 200,000-byte text field over a 1 Mbps uplink: 1.6 s on the wire.
    static let bodyBytes = 200_000
    static let scenario = """
        {"format": "synclab/1", "name": "big record",
         "devices": [{"id": "A", "network": {"bandwidth": "1Mbps", "latency": "50ms"}}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Notes"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Notes", "type": "Note", "name": "long", "fields": {"body": "\(String(repeating: "x", count: bodyBytes))"}}
         ],
         "expect": {"converged": true, "lostUpdates": 0}}
        """

    @Test("a modifyRecords request carries its records' size and takes its transfer time")
    func modifyRecordsCarriesItsSize() throws {
        let judged = try Harness.run(Self.scenario)
        let failed = judged.expectations.filter { !$0.passed }.map(\.name)
        #expect(failed.isEmpty, "failed: \(failed)")
        let sends = try Harness.events(judged).filter {
            $0.event == "send" && $0.string("device") == "A" && $0.string("kind") == "modifyRecords"
        }
        #expect(!sends.isEmpty)
        for send in sends {
            // "body" (4 bytes) plus its value, as `records.recordBytes` counts them.
            #expect(send.int("bytes") == Int64(4 + Self.bodyBytes))
            // 200,004 bytes at 1 Mbps is 1,600,032 µs, on top of the 50 ms latency.
            let arrival = try #require(send.int("arrive_us"))
            #expect(arrival - send.time >= 1_600_032 + 50_000, "sent at \(send.time) µs, arrived at \(arrival) µs")
        }
    }
}
