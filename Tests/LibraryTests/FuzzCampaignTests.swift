import Foundation
import Testing
import SyncLab
import SyncLabTesting

/// Fuzzing a team's own apps from Swift (SPEC §10 "the same from Swift").
@Suite("FuzzCampaign: a team's apps under the fuzzer")
struct FuzzCampaignTests {
    static func registry() throws -> AppRegistry {
        var apps = AppRegistry.builtIn
        try apps.register(documents: "UnionNotes") { UnionNotesApp() }
        try apps.register(documents: "NaiveNotes") { NaiveNotesApp() }
        return apps
    }

    static func folder(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("synclab-fuzz-\(name)-\(ProcessInfo.processInfo.processIdentifier)").path
    }

    @Test("the naive resolver's lost edit is found, shrunk, and its minimal.json reproduces it with the team's app")
    func findsTheNaiveResolversLoss() throws {
        let apps = try Self.registry()
        let out = Self.folder("naive")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FuzzCampaign(profile: .documents, seeds: 1...20, apps: apps, use: ["documents": "NaiveNotes"], outputFolder: out).run()
        #expect(result.seedsRun == 20)
        let found = result.expectFinding("lostUpdate.documents")
        let finding = try #require(found.first)
        #expect(finding.minimalSize.steps <= finding.originalSize.steps && finding.minimalSize.devices <= finding.originalSize.devices)
        // Sizes as synclab fuzz prints them (SPEC §10: devices, steps, events), from the runs.
        #expect(finding.minimalSize.events > 0 && finding.minimalSize.events <= finding.originalSize.events, "\(finding)")
        #expect(finding.description.contains("\(finding.originalSize.events) events to "), "\(finding)")
        let text = try String(contentsOfFile: finding.minimalScenario, encoding: .utf8)
        #expect(text.contains("\"NaiveNotes\""), "the minimal file names the team's app")
        // It reproduces: its expectations fail while the bug is there.
        let rerun = try Scenario(contentsOfFile: finding.minimalScenario, apps: apps).run()
        #expect(!rerun.passed)
        #expect(rerun.anomalies.contains { $0.kind == "lostUpdate" && $0.store == "documents" })
        #expect(FileManager.default.fileExists(atPath: (finding.reports ?? "") + "/timeline.html"))
        // SPEC §9: each issue carries a replay line (the finding's used to name only the file).
        #expect(finding.replayCommand?.hasPrefix("\(AppRegistry.unnamedProgram) run \(finding.minimalScenario) --seed ") == true, "\(finding)")
        #expect(finding.description.contains("\nreplay: \(finding.replayCommand ?? "?")"), "\(finding)")
    }

    @Test("findings group under the team's app, not under the lossless policy each seed drew")
    func fingerprintsNameTheApp() throws {
        let out = Self.folder("named")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FuzzCampaign(profile: .documents, seeds: 1...20, apps: Self.registry(), use: ["documents": "NaiveNotes"], outputFolder: out).run()
        #expect(!result.findings.isEmpty)
        for finding in result.findings {
            #expect(finding.fingerprint.split(separator: ".").dropFirst(2).first == "NaiveNotes", "\(finding.fingerprint)")
        }
        // One bug, one shape: the three lossless policies drawn no longer split it three ways.
        let shapes = result.findings.map { $0.fingerprint.split(separator: ".").dropFirst(3).joined(separator: ".") }
        #expect(Set(shapes).count == shapes.count, "\(result.findings.map(\.fingerprint))")
    }

    @Test("a campaign from Swift says what it exercised: coverage of every hazard, and campaign.json/.md as synclab fuzz writes them")
    func coverageAndSummary() throws {
        let out = Self.folder("coverage")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FuzzCampaign(profile: .documents, seeds: 1...20, apps: Self.registry(), use: ["documents": "UnionNotes"], outputFolder: out).run()
        #expect(result.findings.isEmpty)
        #expect(result.coverage.map(\.hazard) == ["conflicts", "serverRecordChanged", "quotaViolations", "crashesWithChangesPending",
                                                 "zoneDeletions", "tokenExpiries", "accountSwitches",
                                                 "appForegrounds", "networkChanges", "clockSets", "cloudClockSets", "subscriptions",
                                                 "publicRecordWrites", "defaultZoneRecordWrites", "otherTypeRecordSaves", "longKeyRefusals"])
        let conflicts = try #require(result.coverage(of: "conflicts"))
        #expect(conflicts.count > 0 && conflicts.seeds > 0 && conflicts.seeds <= 20, "\(result.coverage)")
        #expect(result.coverage(of: "serverRecordChanged")?.count == 0, "a documents campaign sends no records")
        #expect(result.summaryFile == out + "/campaign.md")
        let json = try String(contentsOfFile: out + "/campaign.json", encoding: .utf8)
        #expect(json.contains("\"seedsRun\": 20") && json.contains("\"conflicts\""), "\(json)")
        let markdown = try String(contentsOfFile: out + "/campaign.md", encoding: .utf8)
        #expect(markdown.contains("## Coverage: hazards that happened"), "\(markdown)")
    }

    @Test("the careful resolver gives no finding over the same seeds")
    func carefulResolverHasNoFinding() throws {
        let out = Self.folder("union")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try FuzzCampaign(profile: .documents, seeds: 1...20, apps: Self.registry(), use: ["documents": "UnionNotes"], outputFolder: out).run()
        #expect(result.findings.isEmpty, "\(result.findings.map(\.description))")
    }

    @Test("the same campaign gives the same findings and files")
    func deterministic() throws {
        let apps = try Self.registry()
        let one = Self.folder("one"), two = Self.folder("two")
        defer { try? FileManager.default.removeItem(atPath: one); try? FileManager.default.removeItem(atPath: two) }
        let first = try FuzzCampaign(profile: .documents, seeds: 1...8, apps: apps, use: ["documents": "NaiveNotes"], outputFolder: one).run()
        let second = try FuzzCampaign(profile: .documents, seeds: 1...8, apps: apps, use: ["documents": "NaiveNotes"], outputFolder: two).run()
        #expect(!first.findings.isEmpty, "seeds 1–8 show the naive resolver's loss")
        #expect(first.findings.map(\.fingerprint) == second.findings.map(\.fingerprint))
        #expect(first.findings.map(\.seeds) == second.findings.map(\.seeds))
        for (a, b) in zip(first.findings, second.findings) {
            #expect(try String(contentsOfFile: a.minimalScenario, encoding: .utf8) == String(contentsOfFile: b.minimalScenario, encoding: .utf8))
        }
    }

    @Test("an unknown store, app or anomaly kind is refused with every problem at once")
    func badOptions() throws {
        #expect(throws: ScenarioLoadError.self) { try FuzzCampaign(profile: .kvs, seeds: 1...1, apps: .builtIn, use: ["kvs": "Nope"]) }
        do {
            _ = try FuzzCampaign(profile: .kvs, seeds: 1...1, apps: .builtIn, use: ["cloud": "x", "documents": "Nope"], find: "lostUpdates")
            Issue.record("accepted bad options")
        } catch {
            #expect(error.problems.map(\.path) == ["use.cloud", "use.documents", "find"])
            #expect(error.description.contains("known: "))
        }
    }
}
