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
