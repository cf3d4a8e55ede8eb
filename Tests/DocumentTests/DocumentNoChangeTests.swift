import Testing
import SyncLab

/// A user op that leaves a document as its device shows it is no write (session 15, spec32):
/// an empty `doc.append`, or a `doc.save` of the text shown, made a new version whose later
/// modification date won a conflict over another device's real edit under lastWriterWins.
@Suite struct DocumentNoChangeTests {
    static func touch(_ op: String) -> String {
        #"""
        {"format": "synclab/1", "name": "a change of nothing", "engine": {"documents": {"conflict": "lastWriterWins"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "1\n"},
           {"at": "3s", "device": "B", "op": "airplane.on"},
           {"at": "5s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "1\n2\n"},
           \#(op),
           {"at": "20s", "device": "B", "op": "airplane.off"}],
         "expect": {"final": {"documents": {"n.txt": "1\n2\n"}}}}
        """#
    }

    @Test("an empty doc.append changes nothing: no write, no conflict, A's edit stays", arguments: [
        #"{"at": "10s", "device": "B", "op": "doc.append", "path": "n.txt", "text": ""}"#,
        #"{"at": "10s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "1\n"}"#,
    ])
    func aChangeOfNothingIsNoWrite(op: String) throws {
        let result = try Scenario(text: Self.touch(op)).run()
        // Before: B:1 was a write, won by modificationDate, and A:2 was a lostUpdate.
        #expect(result.metrics.writes == 2)
        #expect(result.metrics.conflicts == 0)
        #expect(result.metrics.lostUpdates == 0, "\(result.anomalies)")
        #expect(result.passed, "\(result.expectations)")
        #expect(result.trace.contains(#""op":"\#(op.contains("append") ? "doc.append" : "doc.save")","write":"B:1","summary":"#)
                && result.trace.contains(#""outcome":"unchanged""#))
    }

    @Test("an empty append to a document the device does not show makes it, empty")
    func anEmptyAppendMakesAMissingDocument() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "touch", "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "0s", "device": "A", "op": "doc.append", "path": "new.txt", "text": ""}],
         "expect": {"final": {"documents": {"new.txt": ""}}}}
        """#).run()
        #expect(result.passed, "\(result.expectations)")
        #expect(result.metrics.writes == 1)
    }
}
