import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// Runs one seed of a campaign: generate, validate, simulate with tracing off, judge.
public struct SeedRunner: Sendable {
    public var profile: FuzzProfile
    public var policies: FuzzPolicies
    public var rule: FindingRule
    /// The apps every device runs (the built-in policies unless a team's are given).
    public var host: FuzzHost

    public init(profile: FuzzProfile, policies: FuzzPolicies, rule: FindingRule, host: FuzzHost = .builtIn) {
        self.profile = profile; self.policies = policies; self.rule = rule; self.host = host
    }

    /// The search's options: no trace (reports are written for findings only), history kept for
    /// the checker.
    static var searchOptions: SimulationOptions {
        var options = SimulationOptions()
        options.recordTrace = false
        return options
    }

    public func generate(_ seed: UInt64) -> GeneratedScenario {
        var generated = ScenarioGenerator.generate(profile: profile, seed: seed, policies: policies)
        generated.json = host.hosting(generated.json)
        return generated
    }

    public func run(_ seed: UInt64) -> SeedOutcome {
        let generated = generate(seed)
        switch ScenarioLoader.parse(text: generated.text, path: "original.json", apps: host.names) {
        case .failure(let errors):
            let message = errors.errors.map(\.description).joined(separator: "; ")
            let finding = Finding(fingerprint: "invalidScenario.all", kind: "invalidScenario", store: "all", anomaly: nil)
            return SeedOutcome(seed: seed, choices: generated.choices, findings: [finding], coverage: Coverage(), invalid: message)
        case .success(let file):
            let judged = ScenarioRunner.run(file.runs[0], options: host.options)
            return SeedOutcome(seed: seed, choices: generated.choices, findings: PromiseJudge.findings(judged, rule: rule),
                               coverage: Coverage(judged.outcome), invalid: nil)
        }
    }
}
