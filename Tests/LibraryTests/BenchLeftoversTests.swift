import Testing
@testable import SyncLabCLI

/// `synclab bench` leaves its simulator and outcome to the end of the process instead of freeing
/// them after the run (issue 13, session 10: the frees were time `--check` was measured by).
@Suite("synclab bench leaves its run to the process's end")
struct BenchLeftoversTests {
    @Test("after a bench, its simulator and outcome are kept, not freed")
    func benchKeepsItsRun() {
        #expect(SyncLabCommandLine.main(["bench", "--devices", "3", "--duration", "1m", "--check", "--yardstick-events", "1000", "--format", "json"]) == 0)
        #expect(BenchLeftovers.count == 2)
    }
}
