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
        var seconds: Double
    }

    /// - Parameters:
    ///   - original: the scenario tree (no variants).
    ///   - originalText: written as `original.json` when given (a generated scenario).
    static func shrinkAndWrite(_ original: JSON, originalText: String?, target: ShrinkTarget, origin: String, folder: String) throws -> Written? {
        let started = Date() // wall clock ok: the CLI times the campaign, never the simulation
        guard let result = Shrinker(target: target).shrink(original), let originalRun = Shrinker.load(original) else { return nil }
        let before = Shrinker.size(original, judged: ScenarioRunner.run(originalRun, options: searchOptions))
        let minimal = MinimalScenario.finish(result.scenario, judged: result.judged, target: target, from: origin)
        let minimalText = ScenarioText.render(minimal)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let originalText { try ReportWriter.write(originalText, to: folder + "/original.json") }
        try ReportWriter.write(minimalText, to: folder + "/minimal.json")
        guard case .success(let file) = ScenarioLoader.parse(text: minimalText, path: "minimal.json") else { return nil }
        let judged = ScenarioRunner.run(file.runs[0])
        try ReportSet.write([judged], file: "minimal.json", to: folder, variants: ["base"])
        let wanted: Bool
        if case .fingerprint(_, .find) = target { wanted = judged.passed } else { wanted = !judged.passed }
        return Written(before: before, after: Shrinker.size(minimal, judged: judged), runs: result.runs, reproduces: wanted,
                       seconds: Date().timeIntervalSince(started)) // wall clock ok: the CLI times the campaign, never the simulation
    }

    static var searchOptions: SimulationOptions {
        var options = SimulationOptions()
        options.recordTrace = false
        return options
    }
}
