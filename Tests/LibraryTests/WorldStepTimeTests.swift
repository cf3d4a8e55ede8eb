import Testing
import SyncLab

/// A world's ops run now: an `at` given to `perform` was silently replaced by the current time,
/// so an op meant for later ran at once.
@Suite("World ops run now: an at is refused, not dropped")
struct WorldStepTimeTests {
    @Test("perform with an at throws, names the key, and runs nothing")
    func atRefused() throws {
        let world = try World(devices: ["A"])
        #expect(throws: ScenarioLoadError.self) { try world.device("A").perform("kvs.set", ["key": "k", "value": 1, "at": "5s"]) }
        do { try world.perform(["at": "5s", "device": "A", "op": "kvs.set", "key": "k", "value": 1]) } catch {
            #expect(error.problems.first?.path == "world.at" && error.problems.first?.message.contains("advance(by:)") == true, "\(error)")
        }
        world.runUntilQuiescent()
        #expect(world.device("A").view.kvs.isEmpty, "nothing ran: \(world.device("A").view)")
        try world.device("A").perform("kvs.set", ["key": "k", "value": 1])
        #expect(world.device("A").view.kvs == ["k": 1])
    }
}

/// A world's op errors named every op `world[0]` with the line and column of the one-line JSON
/// the world wrote for it: meaningless to the caller, and not the name the trace gives the op.
@Suite("World op errors name the op as the trace does")
struct WorldOpErrorTests {
    @Test("the third op's error says world[2], with no position")
    func namesTheOp() throws {
        let world = try World(devices: ["A"])
        try world.device("A").kvsSet("k", 1)
        try world.device("A").crash()
        do {
            try world.device("A").kvsSet("k", 2)
            Issue.record("a crashed device takes no op")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.path == "world[2].device" && problem.line == nil && problem.column == nil, "\(error)")
            #expect(error.description.hasPrefix("World: world[2].device: device \"A\" is crashed"), "\(error)")
        }
    }
}
