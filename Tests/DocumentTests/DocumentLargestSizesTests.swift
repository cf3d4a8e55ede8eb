import Testing
import SyncLab

/// Documents near the largest size a scenario can write, 2^63 - 1 bytes (session 15, spec32):
/// legal input that trapped on arithmetic overflow (house rule 4: never a crash).
@Suite struct DocumentLargestSizesTests {
    @Test("appending to a synthetic document of 2^63 - 1 bytes is refused with invalidArgument, not a trap")
    func appendPastTheLargestSizeIsRefused() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "append past the largest size", "devices": [{"id": "A"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "airplane.on"},
           {"at": "1s", "device": "A", "op": "doc.save", "path": "v.bin", "content": {"$size": 9223372036854775807}},
           {"at": "2s", "device": "A", "op": "doc.append", "path": "v.bin", "text": "xx"},
           {"at": "3s", "device": "A", "op": "assert", "documents": {"v.bin": {"$size": 9223372036854775807}}}],
         "end": {"heal": false}}
        """#).run()
        #expect(result.passed, "\(result.expectations)")
        #expect(result.trace.contains(#""op":"doc.append","write":"A:2","summary":"doc.append \"v.bin\"","outcome":"rejected: invalidArgument""#))
        #expect(result.metrics.lostUpdates == 0, "\(result.anomalies)")
    }

    @Test("two documents of 6 EB under a quota of 2^63 - 1 bytes, at two paths or as two versions of one: the second is refused for space, not a trap")
    func storageSumsNeverOverflow() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "two huge documents", "limits": {"storage": 9223372036854775807},
         "network": {"bandwidth": "9000000000Gbps"}, "devices": [{"id": "A"}, {"id": "B", "online": false}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "a.bin", "content": {"$size": 6000000000000000000}},
           {"at": "1s", "device": "B", "op": "doc.save", "path": "a.bin", "content": {"$size": 6000000000000000000}},
           {"at": "20s", "device": "A", "op": "doc.save", "path": "b.bin", "content": {"$size": 6000000000000000000}},
           {"at": "40s", "device": "B", "op": "airplane.off"}],
         "end": {"settle": "2m"}}
        """#).run()
        // A:2 (a second path: the ledger's sum) and B:1 (made apart from A:1, so a conflict
        // version of a.bin: the document's own sum) are refused for space.
        #expect(result.anomalies.contains { $0.kind == "quotaViolation" && $0.write == "A:2" }, "\(result.anomalies)")
        #expect(result.anomalies.contains { $0.kind == "quotaViolation" && $0.write == "B:1" }, "\(result.anomalies)")
        #expect(result.metrics.lostUpdates == 0, "\(result.anomalies)")
    }
}
