import Testing
import SyncLab

/// A document upload the cloud refuses for the storage quota decides nothing (session 13,
/// spec22): the conflict it would have made is counted once, when an attempt is kept, and a
/// refused attempt uses up no conflict copy number.
@Suite struct DocumentQuotaRefusedConflictTests {
    /// The final documents of the main account, by path.
    static func documents(_ result: RunResult) -> [String] {
        guard case .object(let account)? = result.final["main"], case .object(let documents)? = account["documents"] else { return [] }
        return documents.members.map(\.key)
    }

    @Test("a conflicting upload refused for space at every retry until space frees is one conflict, and keepBoth's copy is numbered 1")
    func refusedRetriesOfAConflictingUploadAreOneConflict() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A conflicting upload refused for space until space frees", "seed": 33, "limits": {"storage": "1MB"}, "engine": {"documents": {"conflict": "keepBoth"}}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "steps": [{"at": "0s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "300KB"}}, {"at": "20s", "device": ["A", "B"], "op": "airplane.on"}, {"at": "21s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "301KB"}}, {"at": "22s", "device": "B", "op": "doc.save", "path": "clip.mov", "content": {"$size": "302KB"}}, {"at": "25s", "device": "C", "op": "doc.save", "path": "filler.bin", "content": {"$size": "450KB"}}, {"at": "30s", "device": "A", "op": "airplane.off"}, {"at": "40s", "device": "B", "op": "airplane.off"}, {"at": "300s", "device": "C", "op": "doc.delete", "path": "filler.bin"}]}
        """#).run()
        // Before: each refused retry counted a conflict (10 here) and took a conflict number,
        // so the copy was "clip (conflict A 10).mov".
        #expect(result.metrics.conflicts == 1)
        #expect(Self.documents(result) == ["clip (conflict A 1).mov", "clip.mov"])
        #expect(result.metrics.converged && result.metrics.lostUpdates == 0)
    }

    @Test("an edit restoring a deleted document, refused for space at every retry, is not a conflict per attempt")
    func refusedRetriesOfARestoringEditAreNotConflicts() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "An edit that would restore a deleted document finds its space taken", "seed": 32, "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "steps": [{"at": "0s", "device": "A", "op": "doc.save", "path": "big.bin", "content": {"$size": "600KB"}}, {"at": "10s", "device": "B", "op": "airplane.on"}, {"at": "11s", "device": "B", "op": "doc.save", "path": "big.bin", "content": {"$size": "610KB"}}, {"at": "12s", "device": "A", "op": "doc.delete", "path": "big.bin"}, {"at": "20s", "device": "C", "op": "doc.save", "path": "other.bin", "content": {"$size": "600KB"}}, {"at": "30s", "device": "B", "op": "airplane.off"}, {"at": "900s", "device": "B", "op": "assert", "documents": {"big.bin": {"$size": "610KB"}}}]}
        """#).run()
        // The edit never fits (C took the space the delete freed); it stays pending on B.
        #expect(result.metrics.conflicts == 0, "no attempt was kept (before: one per retry, 11)")
        #expect(result.metrics.quotaViolations == 1)
        #expect(result.metrics.lostUpdates == 0)
    }
}
