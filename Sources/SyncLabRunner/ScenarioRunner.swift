import SyncLabScenario
import SyncLabHistory
import SyncLabChecker
import SyncLabResult
import SyncLabSimulation

/// Runs one scenario run and judges it: the library's front door for the CLI and tests. The
/// simulator only records (history, trace); judging happens here, above both the simulation and
/// the checker, so neither knows the other.
public enum ScenarioRunner {
    /// A judged run (the result model, in `SyncLabResult`).
    public typealias Judged = JudgedRun

    public static func run(_ run: ScenarioRun, options: SimulationOptions = SimulationOptions()) -> Judged {
        var simulator = Simulator(run: run, options: options)
        return judge(simulator.execute())
    }

    /// Judges a finished (or snapshot) outcome of the simulator: the checker on its history, then
    /// its run's expectations and invariants.
    public static func judge(_ outcome: RunOutcome) -> Judged {
        let checked = checked(outcome)
        let expectations = ExpectationEvaluator.evaluate(checked)
        return Judged(outcome: checked, expectations: expectations, passed: expectations.allSatisfy(\.passed))
    }

    /// `outcome` with the checker's report on its history. A run the event cap cut off has no
    /// end state to judge: its divergences and losses would be artifacts of the cut, so it keeps
    /// the empty report and is reported as the runaway it is (`ExpectationEvaluator`) — except
    /// that it is not `converged`: the run never finished, so nothing says its devices agree.
    public static func checked(_ outcome: RunOutcome) -> RunOutcome {
        guard !outcome.capHit else {
            var cut = outcome
            cut.report.converged = false
            return cut
        }
        var checked = outcome
        checked.report = Checker().check(outcome.history)
        return checked
    }
}
