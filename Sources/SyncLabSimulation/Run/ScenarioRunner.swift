import SyncLabScenario
import SyncLabResult

/// Runs one scenario run and judges it: the library's front door for the CLI and tests.
public enum ScenarioRunner {
    /// A judged run (the result model, in `SyncLabResult`).
    public typealias Judged = JudgedRun

    public static func run(_ run: ScenarioRun, options: SimulationOptions = SimulationOptions()) -> Judged {
        var simulator = Simulator(run: run, options: options)
        let outcome = simulator.execute()
        let expectations = ExpectationEvaluator.evaluate(outcome)
        return Judged(outcome: outcome, expectations: expectations, passed: expectations.allSatisfy(\.passed))
    }
}
