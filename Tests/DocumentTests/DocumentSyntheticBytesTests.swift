import Testing
import SyncLab

/// Synthetic content (`{"$size": "1MB"}`) saved by a user is new bytes (session 15, spec32): two
/// devices that each save a 1 MB video at one path made two videos, not one. The cloud took the
/// second as `identical` (equal sizes compared equal), dropped it without a conflict, and the
/// checker called nothing lost, under every policy.
@Suite struct DocumentSyntheticBytesTests {
    static func twoVideos(policy: String) -> String {
        #"""
        {"format": "synclab/1", "name": "two videos of one size", "engine": {"documents": {"conflict": "\#(policy)"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "*", "op": "airplane.on"},
           {"at": "1s", "device": "A", "op": "doc.save", "path": "clip.mov", "content": {"$size": "1MB"}},
           {"at": "2s", "device": "B", "op": "doc.save", "path": "clip.mov", "content": {"$size": "1MB"}},
           {"at": "40s", "device": "*", "op": "airplane.off"}],
         "expect": {"final": {"documents": {"clip.mov": {"$size": "1MB"}}}}}
        """#
    }

    @Test("two same-size synthetic saves made apart are a conflict: keepVersions keeps both")
    func sameSizeSavesConflict() throws {
        let result = try Scenario(text: Self.twoVideos(policy: "keepVersions")).run()
        // Before: conflicts 0, unresolved 0, and A's video gone from the cloud with no anomaly.
        #expect(result.metrics.conflicts == 1)
        #expect(result.metrics.unresolvedConflicts == 1)
        #expect(result.metrics.lostUpdates == 0)
        #expect(result.metrics.converged)
        // `expect.final` still compares synthetic content by size.
        #expect(result.passed, "\(result.expectations)")
    }

    @Test("keepBoth saves the other video as a conflict copy, which both devices make identically")
    func keepBothCopiesTheOtherVideo() throws {
        let result = try Scenario(text: Self.twoVideos(policy: "keepBoth")).run()
        #expect(result.metrics.conflicts == 1)
        #expect(result.metrics.lostUpdates == 0)
        #expect(result.metrics.converged)
        guard case .object(let main)? = result.final["main"], case .object(let documents)? = main["documents"] else {
            Issue.record("no documents in final"); return
        }
        #expect(documents["clip (conflict A 1).mov"] == .object(["$size": .integer(1_048_576)]))
    }

    @Test("lastWriterWins loses the earlier video, and the checker says so")
    func lastWriterWinsLosesAVideo() throws {
        let result = try Scenario(text: Self.twoVideos(policy: "lastWriterWins")).run()
        #expect(result.metrics.conflicts == 1)
        #expect(result.anomalies.contains { $0.kind == "lostUpdate" && $0.write == "A:1" }, "\(result.anomalies)")
    }

    @Test("an assert compares synthetic content by size, after a download as after a save")
    func assertComparesBySize() throws {
        let result = try Scenario(text: #"""
        {"format": "synclab/1", "name": "size asserts", "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "v.mov", "content": {"$size": "3MB"}},
           {"at": "0s", "device": "A", "op": "assert", "documents": {"v.mov": {"$size": 3145728}}},
           {"at": "1s", "device": "A", "op": "doc.append", "path": "v.mov", "text": "x"},
           {"at": "30s", "device": "B", "op": "assert", "documents": {"v.mov": {"$size": 3145729}}}]}
        """#).run()
        #expect(result.passed, "\(result.expectations)")
        #expect(result.metrics.lostUpdates == 0)
    }
}
