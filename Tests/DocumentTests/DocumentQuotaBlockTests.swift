import Testing
import SyncLab

/// A refusal for the storage quota holds back only the versions the cloud refused (spec29,
/// documents seed 30406): a version saved after them (a delete, a smaller edit) was never
/// tried, and goes to the cloud at once instead of waiting, unsent, for space to free.
@Suite struct DocumentQuotaBlockTests {
    /// Whether the main account's cloud still has the document at `path`.
    static func cloudHas(_ path: String, _ result: RunResult) -> Bool {
        guard case .object(let account)? = result.final["main"], case .object(let documents)? = account["documents"] else { return false }
        return documents.members.contains { $0.key == path }
    }

    @Test("a delete made after an edit was refused for space reaches the cloud")
    func aDeleteAfterARefusedEditGoes() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A document deleted after its last edit was refused for space", "seed": 1, "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0s", "device": "B", "op": "doc.save", "path": "filler.bin", "content": {"$size": "500KB"}}, {"at": "0s", "device": "A", "op": "doc.save", "path": "notes.txt", "content": {"$size": "400KB"}}, {"at": "10s", "device": "A", "op": "doc.save", "path": "notes.txt", "content": {"$size": "700KB"}}, {"at": "20s", "device": "A", "op": "doc.delete", "path": "notes.txt"}]}
        """#).run()
        // Before: the document stayed blocked on the quota, the delete was never sent, and the
        // cloud kept A:1 (a resurrection on A, which diverged).
        #expect(!Self.cloudHas("notes.txt", result))
        #expect(result.metrics.converged)
        #expect(result.metrics.quotaViolations == 1)
    }

    @Test("a delete made while the refused edit was on the wire reaches the cloud")
    func aDeleteMadeWhileTheRefusedEditWasOnTheWireGoes() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "A document deleted while its edit is on the wire and then refused for space", "seed": 1, "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}], "steps": [{"at": "0s", "device": "B", "op": "doc.save", "path": "filler.bin", "content": {"$size": "500KB"}}, {"at": "0s", "device": "A", "op": "doc.save", "path": "notes.txt", "content": {"$size": "400KB"}}, {"at": "10s", "device": "A", "op": "doc.save", "path": "notes.txt", "content": {"$size": "700KB"}}, {"at": "10020ms", "device": "A", "op": "doc.delete", "path": "notes.txt"}]}
        """#).run()
        // Before: the refusal blocked the whole document, the delete made after the upload
        // left among it.
        #expect(!Self.cloudHas("notes.txt", result))
        #expect(result.metrics.converged)
        #expect(result.metrics.quotaViolations == 1)
    }
}
