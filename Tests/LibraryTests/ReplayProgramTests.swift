import Foundation
import Testing
import SyncLab
import SyncLabTesting
import SyncLabCLI

/// Replay lines of runs that use a team's apps name the team's executable (SPEC §9): `synclab`
/// refuses the team's app names, so `swift run synclab run FILE --seed N` would not replay them.
@Suite("Replay lines of a team's apps")
struct ReplayProgramTests {
    /// The KVS race with `app` on both devices and an expectation that fails (the best is 10).
    static func raceText(app: String) -> String {
        """
        {"format": "synclab/1", "name": "race", "seed": 5, "apps": {"kvs": "\(app)"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "10s", "device": "A", "op": "airplane.on"},
                   {"at": "20s", "device": "A", "op": "kvs.set", "key": "best", "value": 10},
                   {"at": "30s", "device": "B", "op": "kvs.set", "key": "best", "value": 5},
                   {"at": "60s", "device": "A", "op": "airplane.off"}],
         "expect": {"final": {"kvs": {"best": 11}}}}
        """
    }

    static func registry(program: String?) throws -> AppRegistry {
        var apps = try KeyValueStoreAppTests.registry()
        apps.program = program
        return apps
    }

    @Test("a run of a team app replays with the registry's program, in the replay line and the summary")
    func teamAppRun() throws {
        let result = try Scenario(text: Self.raceText(app: "HighScore"), path: "race.json",
                                  apps: try Self.registry(program: "swift run high-scores")).run()
        #expect(!result.passed)
        #expect(result.replayCommand(reportsFolder: "/tmp/r") == "swift run high-scores run /tmp/r/scenario.json --seed 5 --variant base")
        #expect(result.summary.hasSuffix("replay: swift run high-scores run race.json --seed 5"))
    }

    @Test("a run of built-in apps only replays with synclab, whatever the registry's program")
    func builtInRun() throws {
        let result = try Scenario(text: Self.raceText(app: "reader"), path: "race.json",
                                  apps: try Self.registry(program: "swift run high-scores")).run()
        #expect(!result.passed)
        #expect(result.replayCommand() == "swift run synclab run race.json --seed 5 --variant base")
        #expect(result.summary.hasSuffix("replay: swift run synclab run race.json --seed 5"))
    }

    @Test("a registry with no program says the placeholder, not synclab")
    func unnamedProgram() throws {
        let result = try Scenario(text: Self.raceText(app: "HighScore"), path: "race.json", apps: try Self.registry(program: nil)).run()
        #expect(result.replayCommand() == "\(AppRegistry.unnamedProgram) run race.json --seed 5 --variant base")
    }

    @Test("the testing helpers' issues carry the team's replay line")
    func testingIssues() throws {
        let result = try Scenario(text: Self.raceText(app: "HighScore"), path: "race.json",
                                  apps: try Self.registry(program: "swift run high-scores")).run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        withKnownIssue {
            result.expectPassed(reportsIn: folder)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("replay: swift run high-scores run \(folder)/scenario.json --seed 5 --variant base")
        }
    }

    @Test("the team's command line writes JUnit replay lines with its program")
    func junitReplayLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-replay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("race.json").path
        try Data(Self.raceText(app: "HighScore").utf8).write(to: URL(fileURLWithPath: file))
        let junit = directory.appendingPathComponent("junit.xml").path
        let status = SyncLabCommandLine.main(["run", file, "--out", directory.appendingPathComponent("out").path, "--junit", junit, "--quiet"],
                                             apps: try Self.registry(program: "swift run high-scores"))
        #expect(status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("replay: swift run high-scores run \(file) --seed 5 --variant base"))
        #expect(!xml.contains("swift run synclab"))
    }

    @Test("with no program, the command line names its own executable: swift run NAME, NAME argv[0]'s file name")
    func programFromExecutable() {
        #expect(SyncLabCommandLine.programRunning(executable: "/p/.build/debug/high-scores") == "swift run high-scores")
        #expect(SyncLabCommandLine.programRunning(executable: "high-scores") == "swift run high-scores")
        #expect(SyncLabCommandLine.programRunning(executable: "/p/my sim") == "swift run 'my sim'")
        #expect(SyncLabCommandLine.programRunning(executable: nil) == "swift run synclab")
    }
}
