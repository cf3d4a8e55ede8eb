import Testing
import SyncLab

/// keepBoth's conflict copy meeting the storage quota (session 13, spec22): the copy the cloud
/// refuses for space must not hold back the resolution whose removal of the conflict version
/// is what frees that space.
@Suite struct DocumentKeepBothQuotaTests {
    @Test("a keepBoth copy refused for the storage quota lets the resolve go, which frees the space the copy then takes: both versions end in the cloud, converged, nothing lost")
    func aCopyRefusedForSpaceDoesNotHoldBackTheResolve() throws {
        let scenario = try Scenario(text: """
        {"format": "synclab/1", "name": "keepBoth copy over quota", "seed": 13,
         "limits": {"storage": "800KB"}, "engine": {"documents": {"conflict": "keepBoth"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "300KB"}},
           {"at": "20s", "device": "*", "op": "airplane.on"},
           {"at": "21s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "301KB"}},
           {"at": "22s", "device": "B", "op": "doc.save", "path": "clip.mov", "content": {"$size": "302KB"}},
           {"at": "30s", "device": "A", "op": "airplane.off"},
           {"at": "40s", "device": "B", "op": "airplane.off"}]}
        """)
        let result = try scenario.run()
        // Before: the copy waited for space, the resolve waited for the copy, and the conflict
        // version held the space: unresolved for good, both devices diverged from the cloud.
        #expect(result.metrics.converged)
        #expect(result.metrics.unresolvedConflicts == 0)
        #expect(result.metrics.lostUpdates == 0)
        #expect(result.metrics.quotaViolations >= 1, "the copy's refusal is still reported")
        guard case .object(let account)? = result.final["main"], case .object(let documents)? = account["documents"] else {
            Issue.record("no documents in the final state"); return
        }
        #expect(documents.members.map(\.key) == ["clip (conflict A 1).mov", "clip.mov"])
        #expect(result.anomalies.filter { $0.kind == "divergence" }.isEmpty)
    }
}
