import SyncLabJSON
import SyncLabResult
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// Deterministic shrinking of a scenario tree to a smaller one with the same fingerprint (SPEC §10).
///
/// Greedy passes, repeated until a whole round changes nothing or the run budget is spent: remove
/// devices (with their steps), remove steps (halves first, then smaller chunks, then one by one),
/// remove optional members (network, limits, clocks, record fields, `setMany` keys, atomic
/// members), turn latency distributions into a constant, shorten text values, pull step times
/// and fault durations in. A candidate is kept only if it validates and its run still shows the
/// target. Every decision depends only on the input and the runs, so the result is the same in
/// every process. Time is never a budget: the budget counts runs.
public struct Shrinker: Sendable {
    public var target: ShrinkTarget
    /// The most candidate runs one shrink may make.
    public var budget: Int
    /// The apps the candidates run (those the scenario's `apps` section names must be known).
    public var host: FuzzHost

    public init(target: ShrinkTarget, budget: Int = 800, host: FuzzHost = .builtIn) {
        self.target = target; self.budget = budget; self.host = host
    }

    /// The result of a shrink.
    public struct Result: Sendable {
        public var scenario: JSON
        public var judged: ScenarioRunner.Judged
        public var runs: Int
    }

    /// Shrinks `scenario` (no variants: flatten first). Nil if the scenario does not show the target.
    public func shrink(_ scenario: JSON) -> Result? {
        var state = ShrinkState(target: target, budget: budget, host: host)
        guard let first = state.probe(scenario) else { return nil }
        state.best = scenario
        state.judged = first
        var changed = true
        while changed && state.runs < budget {
            changed = false
            changed = state.removeDevices() || changed
            changed = state.removeSteps() || changed
            changed = state.removeMembers() || changed
            changed = state.simplifyValues() || changed
            changed = state.pullTimesIn() || changed
        }
        return Result(scenario: host.hosting(state.best), judged: state.judged!, runs: state.runs)
    }

    /// Whether one judged run shows `target`.
    public static func shows(_ judged: ScenarioRunner.Judged, _ target: ShrinkTarget) -> Bool {
        switch target {
        case .fingerprint(let fingerprint, let rule):
            return PromiseJudge.findings(judged, rule: rule).contains { $0.fingerprint == fingerprint }
        case .failedExpectation(let name):
            return judged.expectations.contains { $0.name == name && !$0.passed }
        }
    }

    /// The scenario's `base` run, loaded from its tree (nil: it does not validate).
    public static func load(_ scenario: JSON) -> ScenarioRun? {
        guard case .success(let file) = ScenarioLoader.parse(text: ScenarioText.render(scenario), path: "minimal.json") else { return nil }
        return file.runs.first
    }

    /// `scenario` with variant `name` made the base: its overrides deep-merged, its `expect`
    /// replacing the base's, and no variants left.
    public static func flatten(_ scenario: JSON, variant name: String) -> JSON {
        let variants = scenario["variants"]?.elements ?? []
        var result = scenario.removing("variants")
        guard name != "base", let variant = variants.first(where: { $0["name"]?.text == name }) else { return result }
        for field in variant.fields ?? [] where field.key != "name" {
            if field.key == "expect" { result = result.setting("expect", field.value); continue }
            result = result.setting(field.key, result[field.key].map { $0.merging(field.value) } ?? field.value)
        }
        return result
    }

    /// Devices, expanded steps and events of one run of `scenario`.
    public static func size(_ scenario: JSON, judged: ScenarioRunner.Judged) -> ScenarioSize {
        let run = judged.outcome.run
        return ScenarioSize(devices: run.devices.count, steps: run.steps.count, events: judged.outcome.statistics.events)
    }
}
