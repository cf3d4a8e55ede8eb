import Foundation
import Testing
import SyncLab

/// An atomic call the cloud refuses whole (over `limits.records.batch`) is refused whole on the
/// device, and a plain save is never refused for a batch limit it does not break (fix31, records
/// seed 4053 of `synclab fuzz`).
@Suite struct RefusedAtomicOverBatchLimitTests {
    @Test("a call refused whole over the batch limit: no part of it goes out again, and an acknowledged plain save is not sent again")
    func refusedAtomicCallStaysRefusedWhole() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/fuzz-records-refused-atomic-over-batch-limit.json")
        let result = try Scenario(text: String(contentsOf: url, encoding: .utf8)).run()
        // Before: r1's in-doubt save of A:3 went out again alone and was applied (A showed A:3 on
        // r1 beside r0's title from before it: an atomicityViolation), and A:2, answered saved,
        // went out again with A:4 and both were refused for records.batch.
        #expect(!result.anomalies.contains { $0.kind == "atomicityViolation" }, "\(result.summary)")
        let refused = Set(result.anomalies.filter { $0.kind == "quotaViolation" }.compactMap(\.write))
        #expect(refused == ["A:3"], "\(result.summary)")
        // After the refusal only A:4 goes out (before, r1's save of A:3 went out again alone).
        let lines = result.trace.split(separator: "\n")
        let refusal = lines.firstIndex { $0.contains(#""ev":"rejected""#) } ?? lines.endIndex
        #expect(lines[refusal...].filter { $0.contains(#""ev":"send""#) && $0.contains(#""kind":"modifyRecords""#) }.count == 1)
        #expect(!result.trace.contains(#""rejected","device":"A","store":"records","account":"main","item":"Z/r0","field":"title","write":"A:2""#))
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }
}
