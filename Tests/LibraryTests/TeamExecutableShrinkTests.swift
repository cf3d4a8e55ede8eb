import Foundation
import Testing
import SyncLab
import SyncLabCLI

/// `synclab shrink` from a team's own executable (SPEC §9: the team runs its apps from the CLI
/// through `SyncLabCommandLine.main(_:apps:)`; SPEC §10: shrink works on any failing file).
@Suite("shrink through a team's executable: the registry's apps")
struct TeamExecutableShrinkTests {
    static let scenario = """
    {"format": "synclab/1", "name": "naive notes", "apps": {"documents": "NaiveNotes"},
     "devices": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
     "steps": [
       {"at": "1s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "a\\n"},
       {"at": "10s", "device": "A", "op": "airplane.on"},
       {"at": "20s", "device": "A", "op": "doc.append", "path": "n.txt", "text": "from A\\n"},
       {"at": "30s", "device": "B", "op": "doc.append", "path": "n.txt", "text": "from B\\n"},
       {"at": "40s", "device": "C", "op": "kvs.set", "key": "k", "value": 1},
       {"at": "60s", "device": "A", "op": "airplane.off"}
     ],
     "expect": {"lostUpdates": 0}}
    """

    @Test("a file naming the team's app shrinks (exit 1) and minimal.json still names the app")
    func shrinksTeamApp() throws {
        var apps = AppRegistry.builtIn
        try apps.register(documents: "NaiveNotes") { NaiveNotesApp() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-team-shrink-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/naive.json"
        try Self.scenario.write(toFile: path, atomically: true, encoding: .utf8)
        let out = directory + "/shrunk"
        // Without the registry, the built-in `synclab` refuses the name (bad input).
        #expect(SyncLabCommandLine.main(["shrink", path, "--out", out + "-builtin"]) == 2)
        #expect(SyncLabCommandLine.main(["shrink", path, "--out", out], apps: apps) == 1)
        let minimal = try String(contentsOfFile: out + "/minimal.json", encoding: .utf8)
        #expect(minimal.contains("\"NaiveNotes\""), "\(minimal)")
        let rerun = try Scenario(contentsOfFile: out + "/minimal.json", apps: apps).run()
        #expect(!rerun.passed && rerun.anomalies.contains { $0.kind == "lostUpdate" }, "\(rerun.summary)")
        #expect(FileManager.default.fileExists(atPath: out + "/timeline.html"))
    }
}
