import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// Runs one seed of a campaign: generate, validate, simulate with tracing off, judge.
public struct SeedRunner: Sendable {
    public var profile: FuzzProfile
    public var policies: FuzzPolicies
    public var rule: FindingRule

    public init(profile: FuzzProfile, policies: FuzzPolicies, rule: FindingRule) {
        self.profile = profile; self.policies = policies; self.rule = rule
    }

    /// The search's options: no trace (reports are written for findings only), history kept for
    /// the checker.
    static var searchOptions: SimulationOptions {
        var options = SimulationOptions()
        options.recordTrace = false
        return options
    }

    public func generate(_ seed: UInt64) -> GeneratedScenario {
        ScenarioGenerator.generate(profile: profile, seed: seed, policies: policies)
    }

    public func run(_ seed: UInt64) -> SeedOutcome {
        let generated = generate(seed)
        switch ScenarioLoader.parse(text: generated.text, path: "original.json") {
        case .failure(let errors):
            let message = errors.errors.map(\.description).joined(separator: "; ")
            let finding = Finding(fingerprint: "invalidScenario.all", kind: "invalidScenario", store: "all", anomaly: nil)
            return SeedOutcome(seed: seed, choices: generated.choices, findings: [finding], coverage: Coverage(), invalid: message)
        case .success(let file):
            let judged = ScenarioRunner.run(file.runs[0], options: SeedRunner.searchOptions)
            return SeedOutcome(seed: seed, choices: generated.choices, findings: PromiseJudge.findings(judged, rule: rule),
                               coverage: Coverage(judged.outcome), invalid: nil)
        }
    }
}
