import Foundation
import Testing
import SyncLab

/// A device that subscribes and fetches learns of every change made before its subscription,
/// also when its fetch overtakes the subscription request on a link that reorders (spec27,
/// records seed 33707 of `synclab fuzz`).
@Suite struct SubscriptionFetchOrderTests {
    @Test("a fetch answered before the subscription it was sent after is followed by one more fetch")
    func fetchOvertakingTheSubscriptionFetchesAgain() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/fuzz-records-fetch-overtakes-subscription.json")
        let result = try Scenario(text: String(contentsOf: url, encoding: .utf8)).run()
        // Before: A showed no Z/r0 in 'other' for good while the cloud had it (a divergence).
        #expect(result.metrics.converged, "\(result.summary)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }
}
