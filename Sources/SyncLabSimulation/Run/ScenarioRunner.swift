import SyncLabScenario
import SyncLabResult

/// Runs one scenario run and judges it: the library's front door for the CLI and tests.
public enum ScenarioRunner {
    /// A judged run (the result model, in `SyncLabResult`).
    public typealias Judged = JudgedRun

    public static func run(_ run: ScenarioRun, options: SimulationOptions = SimulationOptions()) -> Judged {
        var simulator = Simulator(run: run, options: options)
        return judge(simulator.execute())
    }

    /// Judges a finished (or snapshot) outcome against its run's expectations and invariants.
    public static func judge(_ outcome: RunOutcome) -> Judged {
        let expectations = ExpectationEvaluator.evaluate(outcome)
        return Judged(outcome: outcome, expectations: expectations, passed: expectations.allSatisfy(\.passed))
    }
}
