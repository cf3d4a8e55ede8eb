import Testing
import Scenario
@testable import Simulation

/// Account switches judged end to end: the engine's reports and the checker together.
@Suite("Account switches, end to end")
struct AccountSwitchTests {
    /// A sets `theme`; the upload leaves between 6 s and 6.5 s and takes 2 s each way. A signs out
    /// and into `other` at `switchAt`.
    private func scenario(switchAt seconds: Double) -> String {
        """
        {"format": "synclab/1", "name": "switch", "accounts": ["main", "other"],
         "engine": {"kvs": {"uploadDelay": "5s"}}, "network": {"latency": "2s"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "kvs.set", "key": "theme", "value": "dark"},
           {"at": "\(seconds)s", "device": "A", "op": "account.signOut"},
           {"at": "\(seconds + 0.1)s", "device": "A", "op": "account.signIn", "account": "other"}
         ]}
        """
    }

    @Test("a write whose upload is on the wire when the account switches is saved by the old account, not reported lost")
    func uploadOnTheWireIsNotLost() throws {
        let judged = try Harness.run(scenario(switchAt: 7))
        #expect(judged.outcome.report.lostUpdates == 0, "\(judged.outcome.report.anomalies.map(\.explanation))")
        #expect(judged.outcome.report.anomalies.isEmpty)
        let discards = try Harness.events(judged).filter { $0.event == "discarded" }
        #expect(discards.isEmpty)
    }

    @Test("a write not yet sent when another account signs in is discarded and reported lost")
    func unsentWriteIsLost() throws {
        let judged = try Harness.run(scenario(switchAt: 3))
        #expect(judged.outcome.report.lostUpdates == 1)
        #expect(judged.outcome.report.anomalies.first?.explanation.contains("never reached the cloud: discarded at account switch") == true)
    }
}
