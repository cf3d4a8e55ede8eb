import Testing
import SyncLab

/// `unresolvedConflicts` counts the conflicts still open, as `conflicts` counts those detected
/// (SPEC §6; session 15, spec32): one per conflict version the cloud still keeps, not one per
/// document in conflict.
@Suite struct DocumentUnresolvedConflictsTests {
    static func threeDevices(policy: String) -> String {
        #"""
        {"format": "synclab/1", "name": "three versions of one document", "engine": {"documents": {"conflict": "\#(policy)"}},
         "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
         "steps": [
           {"at": "0s", "device": "*", "op": "airplane.on"},
           {"at": "1s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "A\n"},
           {"at": "2s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "B\n"},
           {"at": "3s", "device": "C", "op": "doc.save", "path": "n.txt", "content": "C\n"},
           {"at": "40s", "device": "*", "op": "airplane.off"}]}
        """#
    }

    @Test("keepVersions resolves nothing: every conflict detected is still open")
    func keepVersionsLeavesEveryConflictOpen() throws {
        let result = try Scenario(text: Self.threeDevices(policy: "keepVersions")).run()
        #expect(result.metrics.conflicts == 2)
        // Before: 1, the number of documents in conflict.
        #expect(result.metrics.unresolvedConflicts == 2)
        #expect(result.metrics.lostUpdates == 0)
    }

    @Test("a policy that resolves leaves none open")
    func resolvingPoliciesCloseThem() throws {
        for policy in ["merge", "keepBoth", "lastWriterWins"] {
            let result = try Scenario(text: Self.threeDevices(policy: policy)).run()
            #expect(result.metrics.conflicts >= 2, "\(policy)")
            #expect(result.metrics.unresolvedConflicts == 0, "\(policy)")
        }
    }
}
