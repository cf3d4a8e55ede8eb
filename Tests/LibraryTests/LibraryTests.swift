import Foundation
import Testing
import SyncLab
import SyncLabTesting
import SyncLabCLI

/// The public API of `import SyncLab` (SPEC §9), used as an app team would.
@Suite("SyncLab as a library")
struct LibraryTests {
    /// The records scenario of `Scenarios/records-offline-fields.json`, built in Swift: B's stale
    /// save meets serverRecordChanged and B's app decides.
    static func offlineFields(recordsApp: String) -> ScenarioBuilder {
        var builder = ScenarioBuilder(name: "offline fields")
        builder.seed = 21
        builder.apps = ["records": .string(recordsApp)]
        builder.device("A")
        builder.device("B")
        builder.steps = [
            ["at": "0s", "device": ["A", "B"], "op": "zone.create", "zone": "Notes"],
        ]
        builder.step(at: "1s", device: "A", op: "record.save", ["zone": "Notes", "type": "Note", "name": "n1", "fields": ["title": "Groceries", "body": "milk"]])
        builder.step(at: "10s", device: "A", op: "airplane.on")
        builder.step(at: "10s", device: "B", op: "airplane.on")
        builder.step(at: "20s", device: "A", op: "record.save", ["zone": "Notes", "type": "Note", "name": "n1", "fields": ["title": "Shopping"]])
        builder.step(at: "25s", device: "B", op: "record.save", ["zone": "Notes", "type": "Note", "name": "n1", "fields": ["body": "milk, eggs"]])
        builder.step(at: "60s", device: "A", op: "airplane.off")
        builder.step(at: "70s", device: "B", op: "airplane.off")
        builder.expect = ["lostUpdates": 0]
        return builder
    }

    @Test("a built scenario runs and reports a result: passed, anomalies, metrics, final state, expectations, trace")
    func builtScenarioRuns() throws {
        let merged = try Scenario(Self.offlineFields(recordsApp: "merge")).run()
        #expect(merged.passed && merged.anomalies.isEmpty && merged.metrics.converged && merged.metrics.conflicts >= 1)
        guard case .object(let main)? = merged.final["main"], case .object(let records)? = main["records"] else {
            Issue.record("no final records: \(merged.final)"); return
        }
        #expect(records["Notes/n1"] == ["body": "milk, eggs", "title": "Shopping"] || records["Notes/n1"] == ["title": "Shopping", "body": "milk, eggs"], "\(records)")
        #expect(merged.expectations.map(\.name) == ["lostUpdates"])
        #expect(merged.trace.hasPrefix(#"{"t_us":0,"ev":"run""#))

        let clientWins = try Scenario(Self.offlineFields(recordsApp: "clientWins")).run()
        #expect(!clientWins.passed)
        #expect(clientWins.anomalies.contains { $0.kind == "lostUpdate" && $0.item == "Notes/n1" && $0.field == "title" })
        #expect(clientWins.failedExpectations.map(\.name) == ["lostUpdates"])
    }

    @Test("the same scenario and seed give the same trace; another seed is a different run")
    func determinism() throws {
        let scenario = try Scenario(Self.offlineFields(recordsApp: "merge"))
        #expect(try scenario.run().trace == scenario.run().trace)
        #expect(try scenario.run(seed: 99).seed == 99)
    }

    @Test("a builder is validated as a file: the same problems, paths and known app names")
    func builderValidation() {
        var builder = ScenarioBuilder(name: "bad")
        builder.apps = ["records": "TodoApp"]
        builder.device("A")
        builder.step(at: "1s", device: "Q", op: "kvs.sett", ["key": "k", "value": 1])
        do {
            _ = try Scenario(builder)
            Issue.record("a bad builder must not validate")
        } catch {
            let paths = error.problems.map(\.path)
            #expect(paths.contains("apps.records") && paths.contains("steps[0].op"), "\(error)")
            #expect(error.problems.allSatisfy { $0.file == "(builder)" })
            #expect(error.description.contains(#""serverWins", "clientWins", "merge", "ServerWinsRecordsApp", "ClientWinsRecordsApp", "MergeRecordsApp", "default""#))
        }
    }

    @Test("a file loads with the same checks: unknown app names give their position and the known names")
    func fileValidation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        try Data(#"{"format": "synclab/1", "name": "x", "devices": [{"id": "A", "apps": {"kvs": "HighScore"}}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ScenarioLoadError.self) { try Scenario(contentsOfFile: path) }
        do { _ = try Scenario(contentsOfFile: path) } catch {
            #expect(error.problems.first?.path == "devices[0].apps.kvs" && error.problems.first?.line == 1, "\(error)")
        }
        #expect(AppRegistry.builtIn.kvsApps == ["reader", "default"])
        #expect(SyncLabCommandLine.main(["validate", path], apps: .builtIn) == 2)
    }

    @Test("reports are written on demand, with the scenario a built run came from, and the replay line names it")
    func reportsOnDemand() throws {
        let result = try Scenario(Self.offlineFields(recordsApp: "clientWins")).run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try result.writeReports(to: folder)
        for name in ["trace.jsonl", "result.json", "timeline.html", "report.md", "scenario.json"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)")
        }
        #expect(result.replayCommand(reportsFolder: folder) == "swift run synclab run \(folder)/scenario.json --seed 21 --variant base")
        // The saved scenario replays the same run through the command line's loader.
        let replayed = try Scenario(contentsOfFile: folder + "/scenario.json").run()
        #expect(replayed.trace == result.trace)
    }

    @Test("the testing helpers record one issue per anomaly and per failed expectation, with seed, replay line and reports")
    func testingHelpers() throws {
        let result = try Scenario(Self.offlineFields(recordsApp: "clientWins")).run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-helpers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        withKnownIssue {
            result.expectNoAnomalies(reportsIn: folder)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("lostUpdate") && text.contains("seed 21") && text.contains("replay: swift run synclab run") && text.contains("reports: \(folder)")
        }
        withKnownIssue {
            result.expectPassed(reportsIn: folder)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("expectation lostUpdates: wanted 0")
        }
        let found = result.expectAnomaly("lostUpdate", store: "records", reportsIn: folder)
        #expect(found.count == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/report.md"))
        // Nothing to report: no issue.
        try Scenario(Self.offlineFields(recordsApp: "merge")).run().expectNoAnomalies(reportsIn: folder)
    }
}

/// The stepping world (SPEC §9), in the style of swift-nio's EmbeddedChannel.
@Suite("SyncLab World")
struct WorldTests {
    @Test("acting on devices, advancing time and reading views: an offline edit arrives after reconnecting")
    func stepping() throws {
        let world = try World(devices: ["iPhone", "iPad"])
        try world.device("iPhone").kvsSet("theme", "dark")
        #expect(world.device("iPhone").view.kvs["theme"] == "dark")
        #expect(world.device("iPad").view.kvs["theme"] == nil)
        world.advance(by: .seconds(30))
        #expect(world.now == .seconds(30))
        #expect(world.device("iPad").view.kvs["theme"] == "dark")

        try world.device("iPad").airplane(true)
        try world.device("iPad").kvsSet("theme", "light")
        #expect(world.runUntilQuiescent())
        #expect(world.device("iPhone").view.kvs["theme"] == "dark")
        try world.device("iPad").airplane(false)
        #expect(world.runUntilQuiescent())
        #expect(world.device("iPhone").view.kvs["theme"] == "light")
        #expect(world.anomalies.isEmpty, "\(world.anomalies)")
        let result = world.finish()
        #expect(result.metrics.converged && result.metrics.writes == 2)
    }

    @Test("the checker's verdict so far finds a lost update made step by step, the same as the file's run")
    func verdictSoFar() throws {
        let world = try World(devices: ["A", "B"], apps: ["records": "clientWins"], seed: 21)
        try world.device("A").zoneCreate("Notes")
        try world.device("B").zoneCreate("Notes")
        world.advance(by: .seconds(1))
        try world.device("A").recordSave(zone: "Notes", type: "Note", name: "n1", fields: ["title": "Groceries", "body": "milk"])
        world.advance(by: .seconds(9))
        try world.device("A").airplane(true)
        try world.device("B").airplane(true)
        world.advance(by: .seconds(10))
        try world.device("A").recordSave(zone: "Notes", type: "Note", name: "n1", fields: ["title": "Shopping"])
        world.advance(by: .seconds(5))
        try world.device("B").recordSave(zone: "Notes", type: "Note", name: "n1", fields: ["body": "milk, eggs"])
        #expect(world.device("B").view.records["Notes/n1"]?["body"] == "milk, eggs")
        world.advance(by: .seconds(35))
        try world.device("A").airplane(false)
        world.advance(by: .seconds(10))
        try world.device("B").airplane(false)
        world.runUntilQuiescent()
        let lost = world.anomalies.filter { $0.kind == "lostUpdate" }
        #expect(lost.map { "\($0.item).\($0.field ?? "")" } == ["Notes/n1.title"], "\(world.anomalies)")
        let file = try Scenario(LibraryTests.offlineFields(recordsApp: "clientWins")).run()
        #expect(file.anomalies.map(\.kind) == world.finish().anomalies.map(\.kind))
    }

    @Test("an op is validated as a file's step: a bad one throws and runs nothing")
    func badOps() throws {
        let world = try World(devices: ["A"])
        #expect(throws: ScenarioLoadError.self) { try world.device("Z").kvsSet("k", 1) }
        #expect(throws: ScenarioLoadError.self) { try world.device("A").perform("kvs.sett", ["key": "k"]) }
        do { try world.device("A").perform("zone.create", ["zone": "a/b"]) } catch {
            #expect(error.problems.first?.path == "world[0].zone", "\(error)")
        }
        #expect(world.verdict().metrics.writes == 0)
        try world.perform(["op": "cloud.outage", "for": "30s"])
    }

    @Test("a crash drops what was not persisted; the world goes on after a restart")
    func crashAndRestart() throws {
        let world = try World(devices: ["A"])
        try world.device("A").docSave("n.txt", "hello\n")
        try world.device("A").crash()
        #expect(world.device("A").view == DeviceView.empty)
        try world.device("A").restart()
        #expect(world.device("A").view.documents["n.txt"] == "hello\n")
    }
}
