import Foundation
import Testing
import SyncLab

/// A delete the cloud refuses (here with the atomic request it joined, over the batch limit)
/// puts back the device's own pending save it had replaced, not the last server record (spec27,
/// records seed 22349 of `synclab fuzz`).
@Suite struct RefusedDeleteRestoresSaveTests {
    @Test("a refused delete puts back the pending atomic-call save it replaced: the call never shows in part")
    func refusedDeleteRestoresTheReplacedSave() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/fuzz-records-refused-delete-restores-replaced-save.json")
        let result = try Scenario(text: String(contentsOf: url, encoding: .utf8)).run()
        // Before: r1 went back to B:2's title beside r0 with B:3's (an atomicityViolation, which
        // fails the run), and B:3's title on r1 was lost.
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.summary)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }
}
