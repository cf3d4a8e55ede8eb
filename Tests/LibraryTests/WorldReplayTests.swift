import Foundation
import Testing
import SyncLab
import SyncLabTesting

/// A World's results saved as `scenario.json` the world's devices and none of its ops, so the
/// replay line its failures print (and the Swift Testing issues show) ran an empty scenario that
/// passed. The file now lists every op at the true time it ran and ends (`end.at`) when
/// `finish()` was called, and ops stand where a file's step would run, so replaying it gives the
/// same run.
@Suite("A World's replay file runs the world's ops")
struct WorldReplayTests {
    /// Ops, a wait, a quiescence at which the next op runs at once, and a finish well after the
    /// last op (the heal must wait for it, not come at the last op).
    static func drive(_ world: World) throws {
        try world.device("A").airplane(true)
        try world.device("A").kvsSet("score", 10)
        try world.device("B").kvsSet("score", 20)
        try world.device("B").docSave("n.txt", "v1\n")
        world.advance(by: .seconds(30))
        try world.device("A").airplane(false)
        world.runUntilQuiescent()
        try world.device("A").kvsIncrement("score")
        try world.device("A").docAppend("n.txt", "A\n")
        try world.device("B").airplane(true)
        world.advance(by: .seconds(20))
        try world.device("B").docAppend("n.txt", "B\n")
        world.advance(by: .seconds(40))
    }

    /// The trace with the header (it counts the scenario's steps, which a world has none of at
    /// its start) left out and the world's op names (`world[N]`) as the file's (`steps[N]`).
    static func comparable(_ trace: String) -> [Substring] {
        trace.split(separator: "\n").dropFirst().map { Substring($0.replacingOccurrences(of: "\"step\":\"world[", with: "\"step\":\"steps[")) }
    }

    /// result.json without the two fields that name the file and digest the trace.
    static func comparable(result: RunResult) -> [Substring] {
        result.resultJSON.split(separator: "\n").filter { !$0.contains("\"file\"") && !$0.contains("\"traceDigest\"") }
    }

    @Test("the replay of a finished world's scenario.json is the same run")
    func replayIsTheSameRun() throws {
        let world = try World(devices: ["A", "B"], seed: 7)
        try Self.drive(world)
        let result = world.finish()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("world-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try result.writeReports(to: folder)
        let replayed = try Scenario(contentsOfFile: folder + "/scenario.json").run(seed: result.seed)
        #expect(Self.comparable(result: replayed) == Self.comparable(result: result))
        #expect(Self.comparable(replayed.trace) == Self.comparable(result.trace))
        #expect(result.metrics.writes == 6, "the replay must carry the ops: \(result.metrics)")
        #expect(result.replayCommand(reportsFolder: folder).contains(folder + "/scenario.json"))
    }

    @Test("a world that acts after the scenario's duration (1 day) writes a file that still validates")
    func pastTheDuration() throws {
        let world = try World(devices: ["A"])
        world.advance(by: .seconds(90_000))
        try world.device("A").kvsSet("k", 1)
        let result = world.finish()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("world-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try result.writeReports(to: folder)
        let replayed = try Scenario(contentsOfFile: folder + "/scenario.json").run()
        #expect(Self.comparable(result: replayed) == Self.comparable(result: result))
    }

    @Test("a world from a scenario file keeps the file's steps and appends its own")
    func fromAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("world-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/start.json"
        try #"""
        // JSON5, as files may be
        {format: "synclab/1", name: "from a file", seed: 3, devices: [{id: "A"}, {id: "B"}],
         steps: [{at: "2s", device: "A", op: "kvs.set", key: "k", value: 1},
                 {at: "3s", device: "B", op: "kvs.set", key: "k", value: 2},],
         expect: {converged: true}}
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        let world = try World(Scenario(contentsOfFile: file))
        try world.device("B").airplane(true)
        world.advance(by: .seconds(5))
        try world.device("A").kvsIncrement("k")
        world.advance(by: .seconds(10))
        try world.device("B").airplane(false)
        world.runUntilQuiescent()
        let result = world.finish()
        try result.writeReports(to: folder + "/out")
        let text = try String(contentsOfFile: folder + "/out/scenario.json", encoding: .utf8)
        #expect(text.contains(#""steps":[{"at":"2s","device":"A""#) && text.contains(#""expect":{"converged":true}"#), "\(text)")
        let replayed = try Scenario(contentsOfFile: folder + "/out/scenario.json").run(seed: result.seed)
        #expect(Self.comparable(result: replayed) == Self.comparable(result: result))
        #expect(result.expectations.count == 1)
    }

    @Test("an op right after runUntilQuiescent() runs after what was due at that time")
    func opAfterQuiescenceWaitsAMicrosecond() throws {
        let world = try World(devices: ["A", "B"])
        try world.device("A").kvsSet("k", 1)
        world.runUntilQuiescent()
        let quiet = world.now
        try world.device("B").kvsSet("k", 2)
        let step = try #require(world.finish().trace.split(separator: "\n").first { $0.contains("\"step\":\"world[1]\"") })
        #expect(step.contains("\"t_us\":\(quiet.components.seconds * 1_000_000 + quiet.components.attoseconds / 1_000_000_000_000 + 1),"), "\(step)")
    }

    @Test("end.at starts the end phase at that time, or at the last step if later; a bad one is an error")
    func endAt() throws {
        func healTime(_ end: String) throws -> Substring? {
            let text = #"{"format": "synclab/1", "name": "e", "devices": [{"id": "A"}], "steps": [{"at": "10s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}], "end": "# + end + "}"
            let trace = try Scenario(text: text).run().trace
            return trace.split(separator: "\n").first { $0.contains(#""ev":"heal""#) }
        }
        #expect(try healTime(#"{"at": "1m"}"#)?.hasPrefix(#"{"t_us":60000000,"#) == true)
        #expect(try healTime(#"{"at": "1s"}"#)?.hasPrefix(#"{"t_us":10000000,"#) == true)
        #expect(try healTime("{}")?.hasPrefix(#"{"t_us":10000000,"#) == true)
        #expect(throws: ScenarioLoadError.self) { try healTime(#"{"at": "-1s"}"#) }
    }
}

/// Every `World(devices:)` was named `world`, so the Swift Testing helpers wrote every world's
/// reports, and the `scenario.json` its replay line names, into `.build/synclab/world/base`:
/// two tests' worlds run in parallel overwrote each other's, and a failure's replay line ran
/// the other test's ops.
@Suite("A World is named after the function that made it")
struct WorldNameTests {
    static func worldOfTheFirstTest() throws -> World { try World(devices: ["A"]) }
    static func worldOfTheSecondTest() throws -> World { try World(devices: ["A"]) }

    @Test("two functions' worlds have their own names, hence their own reports folders")
    func namedAfterTheFunction() throws {
        let first = try Self.worldOfTheFirstTest().finish(), second = try Self.worldOfTheSecondTest().finish()
        #expect(first.scenario == "worldOfTheFirstTest" && second.scenario == "worldOfTheSecondTest", "\(first.scenario) \(second.scenario)")
        #expect(first.defaultReportsFolder != second.defaultReportsFolder)
        #expect(try World(devices: ["A"], name: "checkout").finish().scenario == "checkout")
    }
}
