import Foundation
import Testing
import SyncLabScenario
@testable import SyncLabSimulation

/// `cloud.throttle` with a zone, end to end.
@Suite("A busy zone, end to end")
struct ZoneBusyScenarioTests {
    @Test("the engine never sends into a busy zone before retryAfter, and the records arrive once it is free")
    func retriesHonourRetryAfter() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/records-zone-busy.json")
        let judged = try Harness.run(String(decoding: try Data(contentsOf: url), as: UTF8.self))
        #expect(judged.passed, "\(judged.expectations.filter { !$0.passed })")
        let lines = try Harness.events(judged).filter { $0.string("device") == "A" && $0.string("store") == "records" }
        let sends = lines.filter { $0.event == "send" && $0.string("kind") == "modifyRecords" }.map(\.time)
        let refusals = lines.filter { $0.event == "log" && $0.string("event") == "retryScheduled" }.map(\.time)
        #expect(refusals.count >= 2, "the zone stayed busy across a retry")
        for refusal in refusals {
            let next = sends.first { $0 > refusal }
            #expect(next.map { $0 - refusal >= 15_000_000 } == true, "a send \(next.map { String($0 - refusal) } ?? "never") µs after a refusal")
        }
        #expect(judged.outcome.report.anomalies.isEmpty)
        #expect(judged.outcome.statistics.retries == refusals.count)
    }
}
