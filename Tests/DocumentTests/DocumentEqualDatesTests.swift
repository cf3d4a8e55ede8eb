import Testing
import SyncLab

/// Two versions with the same modification date (session 15, spec32): the later arrival wins,
/// and the explanation says so instead of "by modificationDate", which read as if the winner's
/// date were later.
@Suite struct DocumentEqualDatesTests {
    @Test("a tie of modification dates is explained as a tie, broken by the later arrival")
    func aTieIsExplainedAsATie() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "equal dates", "engine": {"documents": {"conflict": "lastWriterWins"}},
         "devices": [{"id": "A"}, {"id": "B", "clock": {"offset": "-2s"}}],
         "steps": [
           {"at": "0s", "device": "*", "op": "airplane.on"},
           {"at": "10s", "device": "A", "op": "doc.save", "path": "plan.txt", "content": "A\n"},
           {"at": "12s", "device": "B", "op": "doc.save", "path": "plan.txt", "content": "B\n"},
           {"at": "40s", "device": "A", "op": "airplane.off"},
           {"at": "50s", "device": "B", "op": "airplane.off"}],
         "expect": {"final": {"documents": {"plan.txt": "B\n"}}}}
        """#).run()
        #expect(result.passed, "\(result.expectations)")
        let lost = result.anomalies.first { $0.kind == "lostUpdate" && $0.write == "A:1" }
        #expect(lost?.explanation.contains("last-writer-wins by modificationDate (tie: later arrival) kept B:1") == true, "\(result.anomalies)")
    }

    @Test("dates that differ keep the plain rule name")
    func distinctDatesKeepThePlainRule() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "distinct dates", "engine": {"documents": {"conflict": "lastWriterWins"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "*", "op": "airplane.on"},
           {"at": "10s", "device": "A", "op": "doc.save", "path": "plan.txt", "content": "A\n"},
           {"at": "12s", "device": "B", "op": "doc.save", "path": "plan.txt", "content": "B\n"},
           {"at": "40s", "device": "*", "op": "airplane.off"}]}
        """#).run()
        let lost = result.anomalies.first { $0.kind == "lostUpdate" && $0.write == "A:1" }
        #expect(lost?.explanation.contains("last-writer-wins by modificationDate kept B:1") == true, "\(result.anomalies)")
    }
}
