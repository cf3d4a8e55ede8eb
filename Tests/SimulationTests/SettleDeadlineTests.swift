import Testing
import SyncLabScenario
import SyncLabResult
import SyncLabKernel
@testable import SyncLabSimulation

/// SPEC §5: a run that reaches `end.settle` before it is quiescent records `"settled": false`.
@Suite("Settling past the deadline")
struct SettleDeadlineTests {
    // A's upload timer is set 100 years out, so A still holds a change it has not sent when the
    // one-hour settle ends: the run did not settle (and A diverges from the cloud).
    static let text = """
    {"format": "synclab/1", "name": "late upload", "engine": {"kvs": {"uploadDelay": "36525d"}},
     "devices": [{"id": "A"}, {"id": "B"}],
     "steps": [{"at": "2s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
    """

    @Test func aRunCutAtTheSettleDeadlineHasNotSettled() throws {
        let judged = try Harness.run(Self.text)
        #expect(judged.outcome.endTime == SimInstant(microseconds: 3_602_000_000))
        #expect(!judged.outcome.report.converged)
        // The event past the deadline was the queue's last: popping it must not make the empty
        // queue read as settled.
        #expect(!judged.outcome.settled)
    }
}
