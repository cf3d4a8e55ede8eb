import Testing
import SyncLab

/// `expect.anomalies` naming any item a `divergence` is about (session 13, spec22).
@Suite struct DivergenceItemsTests {
    @Test("an expected divergence naming the second of two differing documents matches: the anomaly lists every item, not only the first")
    func anExpectedDivergenceMatchesAnyOfItsItems() throws {
        // B's 1 MB upload takes ~84 s on its link; the run may settle for 10 s. B differs from
        // the cloud on note.txt (not fetched yet) and video.mov (not uploaded yet).
        let scenario = try Scenario(text: """
        {"format": "synclab/1", "name": "divergence items", "seed": 29,
         "devices": [{"id": "A"}, {"id": "B", "network": {"bandwidth": "100kbps"}}],
         "steps": [
           {"at": "1s", "device": "B", "op": "doc.save", "path": "video.mov", "content": {"$size": "1MB"}},
           {"at": "2s", "device": "A", "op": "doc.save", "path": "note.txt", "content": "hi\\n"}],
         "end": {"settle": "10s"},
         "expect": {"anomalies": [{"kind": "divergence", "store": "documents", "item": "video.mov", "device": "B"},
                                  {"kind": "divergence", "store": "documents", "item": "note.txt", "device": "B"}]}}
        """)
        let result = try scenario.run()
        #expect(result.anomalies.filter { $0.kind == "divergence" }.count == 1, "one divergence per device and store")
        // Before: only `item` (note.txt, the first in UTF-8 order) was matched; video.mov failed.
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        #expect(result.resultJSON.contains(#""items": ["#), "result.json lists the items")
    }
}
