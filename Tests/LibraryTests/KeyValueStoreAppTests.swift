import Foundation
import Testing
import SyncLab
import SyncLabTesting
import SyncLabCLI

/// A game that keeps the highest score in KVS: on an external change it puts its own best back
/// if the cloud's is lower (max merge).
struct HighScoreApp: KeyValueStoreApp {
    /// The best score this device's user made (the app's memory).
    var best: Int64 = 0

    mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if keys.contains("best"), case .integer(let score)? = store.object(forKey: "best") { best = max(best, score) }
    }

    mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        guard change.changedKeys.contains("best") else { return }
        if case .integer(let cloud)? = store.object(forKey: "best"), cloud >= best {
            best = cloud
        } else if best > 0 {
            store.set(.integer(best), forKey: "best")
        }
    }
}

/// The naive twin: writes its own best back on every change, without looking (overwrite on conflict).
struct NaiveHighScoreApp: KeyValueStoreApp {
    var best: Int64 = 0

    mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if case .integer(let score)? = store.object(forKey: "best") { best = score }
    }

    mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        if change.changedKeys.contains("best") && best > 0 { store.set(.integer(best), forKey: "best") }
    }
}

/// Reads `src` whenever it changes elsewhere; sets `dst` when its user changes `go`.
struct CopierApp: KeyValueStoreApp {
    mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if keys.contains("go") { store.set(.integer(1), forKey: "dst") }
    }

    mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        _ = store.object(forKey: "src")
    }
}

@Suite("A team's KVS app on every device")
struct KeyValueStoreAppTests {
    static func registry() throws -> AppRegistry {
        var apps = AppRegistry.builtIn
        try apps.register(kvs: "HighScore") { HighScoreApp() }
        try apps.register(kvs: "NaiveHighScore") { NaiveHighScoreApp() }
        return apps
    }

    /// A scores `a` offline; B scores `b` later, online; A reconnects. Device clocks decide, so
    /// B's later write wins the cloud unless A's app does something about it.
    /// `deviceB` overrides B's app (two naive apps would fight forever over the key).
    static func scenario(app: String, deviceB: String? = nil, a: Int64, b: Int64) throws -> Scenario {
        var builder = ScenarioBuilder(name: "high score \(app)")
        builder.seed = 5
        builder.apps = ["kvs": .string(app)]
        builder.device("A")
        builder.device("B", deviceB.map { ["apps": ["kvs": .string($0)]] } ?? [:])
        builder.step(at: "10s", device: "A", op: "airplane.on")
        builder.step(at: "20s", device: "A", op: "kvs.set", ["key": "best", "value": .integer(a)])
        builder.step(at: "30s", device: "B", op: "kvs.set", ["key": "best", "value": .integer(b)])
        builder.step(at: "60s", device: "A", op: "airplane.off")
        return try Scenario(builder, apps: registry())
    }

    func finalBest(_ result: RunResult) -> ScenarioValue? {
        guard case .object(let main)? = result.final["main"], case .object(let kvs)? = main["kvs"] else { return nil }
        return kvs["best"]
    }

    @Test("the built-in reader loses the offline high score; the max-merging app keeps it, and nothing is lost")
    func maxMergeKeepsTheBest() throws {
        let reader = try Self.scenario(app: "reader", a: 10, b: 5).run()
        #expect(finalBest(reader) == 5)
        #expect(reader.anomalies.contains { $0.kind == "lostUpdate" && $0.item == "best" && $0.device == "A" }, "\(reader.anomalies)")

        let game = try Self.scenario(app: "HighScore", a: 10, b: 5).run()
        #expect(finalBest(game) == 10)
        game.expectNoAnomalies()
        #expect(game.metrics.converged)
        // The app's write is its own (A:m1), built on what it saw: its user's 10 and B's 5.
        #expect(game.trace.contains(#""ev":"derivedWrite","device":"A""#), "\(game.trace)")
    }

    @Test("the naive twin writes its lower score over a higher one it never read: the lost update is found")
    func naiveTwinIsCaught() throws {
        let naive = try Self.scenario(app: "NaiveHighScore", deviceB: "reader", a: 5, b: 10).run()
        #expect(finalBest(naive) == 5)
        let lost = naive.expectAnomaly("lostUpdate", store: "kvs", device: "B")
        #expect(lost.first?.replacedBy?.hasPrefix("A:m") == true, "\(lost)")
        // The max-merging app reads the cloud's 10 and leaves it: B's score stays (A's lower
        // offline 5 is overwritten, which last-writer-wins counts as lost, and max intends).
        let game = try Self.scenario(app: "HighScore", deviceB: "reader", a: 5, b: 10).run()
        #expect(finalBest(game) == 10)
        #expect(!game.anomalies.contains { $0.device == "B" }, "\(game.anomalies)")
    }

    @Test("hosting is deterministic, and the command line runs a team's registry")
    func deterministicAndCommandLine() throws {
        let scenario = try Self.scenario(app: "HighScore", a: 10, b: 5)
        #expect(try scenario.run().trace == scenario.run().trace)
        #expect(throws: ScenarioLoadError.self) { var apps = AppRegistry.builtIn; try apps.register(kvs: "reader") { HighScoreApp() } }
        #expect(try Self.registry().kvsApps == ["reader", "HighScore", "NaiveHighScore", "default"])
    }

    @Test("an app's memory does not survive a crash; the store does")
    func crashDropsMemory() throws {
        let world = try World(Self.scenario(app: "HighScore", a: 10, b: 5))
        world.advance(by: .seconds(25))
        try world.device("A").crash()
        try world.device("A").restart()
        world.advance(by: .seconds(60))
        world.runUntilQuiescent()
        // The restarted app never saw its user's 10 (its memory is gone), and the store had it
        // replaced by B's later 5 before the app could act: the offline score is lost.
        #expect(world.device("A").view.kvs["best"] == 5)
        #expect(world.anomalies.contains { $0.kind == "lostUpdate" && $0.device == "A" }, "\(world.anomalies)")
    }

    @Test("an app's write is built on what it read, and a restarted app's on nothing its crashed self read")
    func readsBeforeACrashAreNotParentsAfterIt() throws {
        func run(crash: Bool) throws -> String {
            var builder = ScenarioBuilder(name: "copier")
            builder.seed = 3
            builder.apps = ["kvs": .string("Copier")]
            builder.device("A")
            builder.device("B")
            builder.step(at: "10s", device: "B", op: "kvs.set", ["key": "src", "value": .integer(7)])
            if crash {
                builder.step(at: "40s", device: "A", op: "device.crash")
                builder.step(at: "41s", device: "A", op: "device.restart")
            }
            builder.step(at: "60s", device: "A", op: "kvs.set", ["key": "go", "value": .integer(1)])
            var apps = AppRegistry.builtIn
            try apps.register(kvs: "Copier") { CopierApp() }
            let trace = try Scenario(builder, apps: apps).run().trace
            return trace.split(separator: "\n").first { $0.contains(#""ev":"derivedWrite""#) }.map(String.init) ?? ""
        }
        // Read before the user's change: B's write is a parent (the notes reached the memory).
        let noCrash = try run(crash: false)
        #expect(noCrash.contains(#""B:1""#), "\(noCrash)")
        // Read by the app that crashed: not a parent of the restarted app's write.
        let afterCrash = try run(crash: true)
        #expect(afterCrash.contains(#""ev":"derivedWrite""#) && !afterCrash.contains(#""B:1""#), "\(afterCrash)")
    }
}

@Suite("synclab bench --hosted")
struct HostedBenchTests {
    @Test("bench hosts a KVS observer or a CKSyncEngine delegate through the public API on every device; documents cannot be hosted")
    func hostedBench() {
        #expect(SyncLabCommandLine.main(["bench", "--devices", "5", "--duration", "30s", "--interval", "2s", "--hosted", "--format", "json"]) == 0)
        #expect(SyncLabCommandLine.main(["bench", "--devices", "5", "--duration", "30s", "--interval", "2s", "--store", "records", "--hosted", "--check", "--format", "json"]) == 0)
        #expect(SyncLabCommandLine.main(["bench", "--devices", "5", "--store", "documents", "--hosted"]) == 2)
    }
}

@Suite("A team's executable: the command line with its registry")
struct TeamCommandLineTests {
    @Test("synclab run knows the registry's apps (exit 0, reports written); the plain command line refuses them (exit 2)")
    func runWithRegistry() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-team-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("race.json").path
        try Data("""
        {"format": "synclab/1", "name": "race", "seed": 5, "apps": {"kvs": "HighScore"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "10s", "device": "A", "op": "airplane.on"},
                   {"at": "20s", "device": "A", "op": "kvs.set", "key": "best", "value": 10},
                   {"at": "30s", "device": "B", "op": "kvs.set", "key": "best", "value": 5},
                   {"at": "60s", "device": "A", "op": "airplane.off"}],
         "expect": {"lostUpdates": 0, "final": {"kvs": {"best": 10}}}}
        """.utf8).write(to: URL(fileURLWithPath: file))
        let out = directory.appendingPathComponent("out").path
        #expect(SyncLabCommandLine.main(["run", file, "--out", out, "--quiet"], apps: try KeyValueStoreAppTests.registry()) == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/report.md"))
        #expect(SyncLabCommandLine.main(["run", file, "--out", out + "-plain", "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out + "-plain"))
    }
}
