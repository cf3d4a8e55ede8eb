import Foundation
import SyncLabExplore
import SyncLabJSON
import SyncLabReports
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// Shrinks one finding and writes its folder: `original.json`, `minimal.json` and the minimal
/// run's reports (SPEC §10).
enum FindingWriter {
    /// What one shrink gave, for the summary lines.
    struct Written: Sendable {
        var before: ScenarioSize
        var after: ScenarioSize
        var runs: Int
        /// Whether `synclab run minimal.json` shows the finding (fails under a promise, passes under --find).
        var reproduces: Bool
        /// The anomaly kinds the minimal run shows (sorted, each once).
        var anomalyKinds: [String]
        var seconds: Double
    }

    /// - Parameters:
    ///   - original: the scenario tree (no variants).
    ///   - originalText: written as `original.json` when given (a generated scenario).
    ///   - host: the apps every run makes (the shrinker's, the size of the original, the check
    ///     that `minimal.json` shows the finding): the built-ins, or a team's registry when its
    ///     own executable runs `shrink` on a file naming its apps (SPEC §9). Its
    ///     `hostRecordsPolicies` hosts the records policies as the built-in apps, as `synclab run
    ///     --host-records-policies` does, so a finding only the apps have shrinks.
    static func shrinkAndWrite(_ original: JSON, originalText: String?, target: ShrinkTarget, origin: String, folder: String,
                               host: FuzzHost = .builtIn) throws -> Written? {
        let started = Date() // wall clock ok: the CLI times the campaign, never the simulation
        let hostRecordsPolicies = host.hostRecordsPolicies
        guard let result = Shrinker(target: target, host: host).shrink(original), let originalRun = host.load(original) else { return nil }
        let before = Shrinker.size(original, judged: ScenarioRunner.run(originalRun, options: host.options))
        let minimal = MinimalScenario.finish(result.scenario, judged: result.judged, target: target, from: origin,
                                             replayFlag: hostRecordsPolicies ? hostRecordsPoliciesFlag : nil)
        let minimalText = ScenarioText.render(minimal)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let originalText { try ReportWriter.write(originalText, to: folder + "/original.json") }
        try ReportWriter.write(minimalText, to: folder + "/minimal.json")
        guard case .success(let file) = ScenarioLoader.parse(text: minimalText, path: "minimal.json", apps: host.names) else { return nil }
        var replayOptions = SimulationOptions()
        replayOptions.apps = host.factories
        replayOptions.hostRecordsPolicies = hostRecordsPolicies
        let judged = ScenarioRunner.run(file.runs[0], options: replayOptions)
        try ReportSet.write([judged], file: "minimal.json", to: folder, variants: ["base"])
        let wanted: Bool
        if case .fingerprint(_, .find) = target { wanted = judged.passed } else { wanted = !judged.passed }
        return Written(before: before, after: Shrinker.size(minimal, judged: judged), runs: result.runs, reproduces: wanted,
                       anomalyKinds: anomalyKinds(judged),
                       seconds: Date().timeIntervalSince(started)) // wall clock ok: the CLI times the campaign, never the simulation
    }

    /// The anomaly kinds a run shows, sorted, each once.
    static func anomalyKinds(_ judged: ScenarioRunner.Judged) -> [String] {
        Array(Set(judged.outcome.report.anomalies.map(\.kind.rawValue))).sorted()
    }

    /// The lines naming `minimal.json` under a shrunk finding: its path (with a warning when
    /// `synclab run` on it does not show the finding) and, when only the hosted records apps show
    /// it, the replay command with the flag that hosts them (without it the engine runs).
    static func minimalLines(_ minimal: String, reproduces: Bool, hostRecordsPolicies: Bool) -> [String] {
        guard hostRecordsPolicies else {
            return ["  \(minimal)" + (reproduces ? "" : " (warning: synclab run on it does not show the finding)")]
        }
        let replay = "synclab run \(ReplayCommand.shellQuoted(minimal)) \(hostRecordsPoliciesFlag)"
        return ["  \(minimal)" + (reproduces ? "" : " (warning: \(replay) does not show the finding)"), "  replay: \(replay)"]
    }

    /// The flag `synclab run` needs to show a finding shrunk with `hostRecordsPolicies`.
    static let hostRecordsPoliciesFlag = "--host-records-policies"
}
