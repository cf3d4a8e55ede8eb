import Testing
import SyncLab

/// Deleting a document its device shows in conflict (session 13, spec22): the conflict versions
/// the device knows go with the file (NSFileVersion's do), they are not edits concurrent with the
/// delete, so the cloud does not restore the document from one of them.
@Suite struct DocumentDeleteInConflictTests {
    @Test("a delete of a document shown in conflict removes it with its conflict versions: the space frees, nothing is restored, nothing is lost")
    func aDeleteOfADocumentInConflictTakesItsVersions() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "Deleting a document in conflict frees its conflict versions too", "seed": 41, "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "steps": [{"at": "0s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "100KB"}}, {"at": "20s", "device": ["A", "B"], "op": "airplane.on"}, {"at": "21s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "400KB"}}, {"at": "22s", "device": "B", "op": "doc.save", "path": "clip.mov", "content": {"$size": "401KB"}}, {"at": "30s", "device": "A", "op": "airplane.off"}, {"at": "40s", "device": "B", "op": "airplane.off"}, {"at": "60s", "device": "A", "op": "doc.delete", "path": "clip.mov"}, {"at": "90s", "device": "C", "op": "doc.save", "path": "big.bin", "content": {"$size": "700KB"}}]}
        """#).run()
        // Before: the cloud took A's own conflict version A:2 as an edit concurrent with A's
        // delete and restored the document from it (a second conflict); its 800 KB stayed, so
        // C's 700 KB file was refused and C diverged.
        #expect(result.metrics.conflicts == 1)
        #expect(result.metrics.quotaViolations == 0)
        #expect(result.metrics.lostUpdates == 0, "the versions the delete removed on purpose are not lost: \(result.anomalies)")
        #expect(result.metrics.converged)
        guard case .object(let account)? = result.final["main"], case .object(let documents)? = account["documents"] else {
            Issue.record("no documents in the final state"); return
        }
        #expect(documents.members.map(\.key) == ["big.bin"])
    }
}
