import Foundation
internal import SyncLabJSON
internal import SyncLabProtocol
internal import SyncLabScenario
internal import SyncLabExplore
internal import SyncLabRunner

/// A search (SPEC §10) from Swift: seeded random worlds with a team's own apps on every device,
/// each broken promise shrunk to a minimal scenario file. The same generator, promises,
/// fingerprints and shrinker as `synclab fuzz`; the generated scenarios name the team's apps,
/// so every seed, every shrink candidate and every `minimal.json` runs the team's code.
///
/// ```swift
/// var apps = AppRegistry.builtIn
/// try apps.register(documents: "Notes") { NotesApp() }
/// let result = try FuzzCampaign(profile: .documents, seeds: 1...200, apps: apps, use: ["documents": "Notes"]).run()
/// result.expectNoFindings()   // SyncLabTesting: one issue per finding, naming its minimal.json
/// ```
///
/// A team's app is held to the promises of the store's lossless policy (docs/FUZZING.md): a
/// documents app must not lose an edit, a records app must not lose a field only one side
/// changed, every app must converge after the heal and never show half an atomic write.
public struct FuzzCampaign: Sendable {
    /// Which traffic the generator makes (`synclab fuzz --profile`).
    public enum Profile: String, Sendable, CaseIterable {
        case kvs, documents, records, mixed
    }

    /// The generator's profile.
    public var profile: Profile
    /// The seeds to run, in order (findings are grouped by fingerprint, first seed first).
    public var seeds: ClosedRange<UInt64>
    /// The registry the apps come from.
    public var apps: AppRegistry
    /// The app each store runs, by store (`kvs`, `documents`, `records`) and registered name.
    public var use: [String: String]
    /// `synclab fuzz --find KIND`: collect examples of one anomaly kind instead of broken promises.
    public var find: String?
    /// Where the campaign is written: `FOLDER/campaign.json` and `campaign.md` (the summary
    /// `synclab fuzz` writes) and `FOLDER/findings/<fingerprint>/{original.json,minimal.json,reports}`.
    /// Not emptied first: findings folders of an earlier campaign there stay.
    /// Default: `.build/synclab/fuzz/<profile>` under the current directory.
    public var outputFolder: String?
    /// The most runs one shrink may make.
    public var shrinkBudget = 800

    /// - Throws: when `use` names a store other than `kvs`, `documents`, `records`, or an app the
    ///   registry does not know for that store, or `find` is not an anomaly kind.
    public init(profile: Profile, seeds: ClosedRange<UInt64>, apps: AppRegistry, use: [String: String],
                find: String? = nil, outputFolder: String? = nil) throws(ScenarioLoadError) {
        self.profile = profile; self.seeds = seeds; self.apps = apps; self.use = use; self.find = find; self.outputFolder = outputFolder
        var problems: [ScenarioProblem] = []
        for store in use.keys.sorted() {
            guard let known = Store(rawValue: store).map({ apps.names.names(for: $0) }) else {
                problems.append(ScenarioProblem(file: "FuzzCampaign", path: "use.\(store)", message: "unknown store \"\(store)\" (stores: kvs, documents, records)"))
                continue
            }
            if let name = use[store], !known.contains(name) {
                problems.append(ScenarioProblem(file: "FuzzCampaign", path: "use.\(store)",
                    message: "no \(store) app named \"\(name)\" in the registry (known: \(known.map { "\"\($0)\"" }.joined(separator: ", ")))"))
            }
        }
        if let find, !FindingRule.kinds.contains(find) {
            problems.append(ScenarioProblem(file: "FuzzCampaign", path: "find", message: "unknown anomaly kind \"\(find)\" (kinds: \(FindingRule.kinds.joined(separator: ", ")))"))
        }
        if !problems.isEmpty { throw ScenarioLoadError(problems: problems) }
    }

    /// Runs every seed (single-threaded, in order), then shrinks the first seed of each
    /// fingerprint and writes its files and the campaign's summary. The same campaign gives the
    /// same result in any process.
    public func run() -> FuzzResult {
        let rule: FindingRule = find.map { .find($0) } ?? .promises
        let host = FuzzHost(names: apps.names, factories: apps.factories,
                            apps: use.keys.sorted().map { (store: $0, name: use[$0]!) })
        let runner = SeedRunner(profile: FuzzProfile(rawValue: profile.rawValue)!, policies: .lossless, rule: rule, host: host)
        var order: [String] = []
        var bySeed: [String: (first: UInt64, seeds: [UInt64], explanation: String)] = [:]
        var seedsRun = 0
        // The campaign summary `synclab fuzz` writes (SPEC §10: seeds run, findings by
        // fingerprint, coverage of each hazard), so a team sees what its search exercised.
        var summary = CampaignSummary(profile: profile.rawValue, policies: FuzzPolicies.lossless.names(for: runner.profile), find: find,
                                      firstSeed: seeds.lowerBound, lastSeed: seeds.upperBound, shard: nil)
        for seed in seeds {
            seedsRun += 1
            let outcome = runner.run(seed)
            summary.add(outcome)
            for finding in outcome.findings {
                let explanation = finding.anomaly?.explanation ?? finding.kind
                if bySeed[finding.fingerprint] == nil {
                    order.append(finding.fingerprint)
                    bySeed[finding.fingerprint] = (seed, [], explanation)
                }
                if bySeed[finding.fingerprint]!.seeds.last != seed { bySeed[finding.fingerprint]!.seeds.append(seed) }
            }
        }
        let folder = outputFolder ?? FileManager.default.currentDirectoryPath + "/.build/synclab/fuzz/" + profile.rawValue
        let findings = order.map { fingerprint in
            let entry = bySeed[fingerprint]!
            return shrinkAndWrite(fingerprint, entry.first, entry.seeds, entry.explanation, runner, rule, host, folder)
        }
        var summaryFile: String?
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try summary.json.renderedPretty().write(toFile: folder + "/campaign.json", atomically: true, encoding: .utf8)
            try summary.markdown.write(toFile: folder + "/campaign.md", atomically: true, encoding: .utf8)
            summaryFile = folder + "/campaign.md"
        } catch {
            summaryFile = nil
        }
        let coverage = Coverage.hazards.indices.map {
            FuzzCoverage(hazard: Coverage.hazards[$0], count: summary.coverage.counts[$0], seeds: summary.seedsCovering.counts[$0])
        }
        return FuzzResult(seedsRun: seedsRun, findings: findings, outputFolder: folder, coverage: coverage, summaryFile: summaryFile)
    }

    /// Shrinks a finding's first seed and writes `original.json`, `minimal.json` and the minimal run's reports.
    private func shrinkAndWrite(_ fingerprint: String, _ seed: UInt64, _ seeds: [UInt64], _ explanation: String, _ runner: SeedRunner,
                                _ rule: FindingRule, _ host: FuzzHost, _ folder: String) -> FuzzFinding {
        let original = runner.generate(seed).json
        let target = ShrinkTarget.fingerprint(fingerprint, rule)
        let shrunk = Shrinker(target: target, budget: shrinkBudget, host: host).shrink(original)
        let origin = "FuzzCampaign profile \(profile.rawValue) seed \(seed)"
        let minimal = shrunk.map { MinimalScenario.finish($0.scenario, judged: $0.judged, target: target, from: origin) } ?? original
        let directory = folder + "/findings/" + fingerprint
        let minimalPath = directory + "/minimal.json", originalPath = directory + "/original.json"
        var written: String?
        var replay: String?
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try ScenarioText.render(original).write(toFile: originalPath, atomically: true, encoding: .utf8)
            let text = ScenarioText.render(minimal)
            try text.write(toFile: minimalPath, atomically: true, encoding: .utf8)
            let result = try Scenario(text: text, path: minimalPath, apps: apps).run()
            // Without a folder the line names the path given: minimal.json itself.
            replay = result.replayCommand()
            written = try result.writeReports(to: directory)
        } catch {
            written = nil
        }
        // Sizes as `synclab fuzz` prints them (SPEC §10: devices, steps, events), from runs.
        let size = { (size: ScenarioSize) in (devices: size.devices, steps: size.steps, events: size.events) }
        let before = host.load(original).map { size(Shrinker.size(original, judged: ScenarioRunner.run($0, options: host.options))) }
            ?? (devices: 0, steps: 0, events: 0)
        let after = shrunk.map { size(Shrinker.size(minimal, judged: $0.judged)) } ?? before
        return FuzzFinding(fingerprint: fingerprint, firstSeed: seed, seeds: seeds, explanation: explanation,
                           minimalScenario: minimalPath, originalScenario: originalPath, reports: written,
                           originalSize: before, minimalSize: after, replayCommand: replay)
    }
}
