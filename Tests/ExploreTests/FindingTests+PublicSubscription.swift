import Foundation
import Testing
import SyncLabExplore
import SyncLabRunner
import SyncLabScenario

/// Session 16: which devices the promise table counts as subscribed to the public database.
extension FindingTests {
    /// Subscribed to the public database, then reinstalled: the new app never asked for the
    /// subscription, so it is not pushed public changes and the judge treats it as never
    /// subscribed (its divergence on a public record is by design). Subscribing again after the
    /// install makes it converge.
    @Test("an app deleted after subscribing to the public database is not subscribed any more (records seed 14812, minimal)")
    func aReinstalledAppIsNotSubscribed() throws {
        let scenario = #"""
        {"format": "synclab/1", "name": "public subscription and reinstall", "seed": 14812,
         "devices": [{"id": "Zoë"}, {"id": "D"}],
         "steps": [
           {"at": "0ms", "device": "Zoë", "op": "subscription.create", "database": "public"},
           {"at": "0ms", "device": "Zoë", "op": "app.delete"},
           {"at": "0ms", "device": "Zoë", "op": "app.install"},
           SUBSCRIBE
           {"at": "135ms", "device": "Zoë", "op": "record.save", "database": "public", "type": "Note", "name": "r0", "fields": {"title": "A1"}},
           {"at": "135ms", "device": "D", "op": "record.save", "database": "public", "type": "Note", "name": "r0", "fields": {"title": "D5"}}
         ]}
        """#
        func judged(_ subscribeAgain: Bool) throws -> ScenarioRunner.Judged {
            let again = #"{"at": "0ms", "device": "Zoë", "op": "subscription.create", "database": "public"},"#
            let text = scenario.replacingOccurrences(of: "SUBSCRIBE", with: subscribeAgain ? again : "")
            guard case .success(let file) = ScenarioLoader.parse(text: text, path: "reinstall.json"), let run = file.runs.first else {
                throw FixtureError.doesNotLoad("reinstall.json")
            }
            return ScenarioRunner.run(run)
        }
        let reinstalled = try judged(false)
        #expect(reinstalled.outcome.report.anomalies.contains { $0.kind == .divergence && $0.device == "Zoë" })
        #expect(PromiseJudge.findings(reinstalled, rule: .promises).isEmpty)
        let subscribedAgain = try judged(true)
        #expect(!subscribedAgain.outcome.report.anomalies.contains { $0.kind == .divergence })
    }
}
