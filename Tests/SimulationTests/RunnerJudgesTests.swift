import Foundation
import Testing
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// The simulator records and the runner judges (issue 11): the module graph keeps the checker
/// out of the simulation, so a simulator's outcome carries no verdict until the runner's.
@Suite("The runner judges what the simulator recorded")
struct RunnerJudgesTests {
    static func airplaneLostUpdate() throws -> ScenarioRun {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/airplane-lost-update.json").path
        return try ScenarioLoader.load(path: path).get().runs[0]
    }

    @Test("the simulator's outcome has an empty report; ScenarioRunner.judge runs the checker on its history")
    func simulatorDoesNotJudge() throws {
        let run = try Self.airplaneLostUpdate()
        var simulator = Simulator(run: run, options: SimulationOptions())
        let outcome = simulator.execute()
        #expect(outcome.report.anomalies.isEmpty && outcome.report.writes == 0, "the simulator records only")
        let judged = ScenarioRunner.judge(outcome)
        #expect(judged.outcome.report.lostUpdates >= 1)
        #expect(judged.outcome.report.writes > 0)
        // The same verdict as the front door's, byte for byte in the trace.
        let direct = ScenarioRunner.run(run)
        #expect(direct.outcome.report.anomalies == judged.outcome.report.anomalies)
        #expect(direct.outcome.trace == judged.outcome.trace)
        #expect(direct.passed == judged.passed)
    }

    @Test("a run the event cap cut off is not checked: its report stays empty")
    func capHitIsNotChecked() throws {
        var run = try Self.airplaneLostUpdate()
        run.end.maxEvents = 50
        let judged = ScenarioRunner.run(run)
        #expect(judged.outcome.capHit)
        #expect(judged.outcome.report.anomalies.isEmpty)
        #expect(!judged.passed)
    }
}
