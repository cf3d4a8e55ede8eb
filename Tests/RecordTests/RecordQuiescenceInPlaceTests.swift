import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// `RecordEngine.isQuiescentInPlace()` (what the simulator asks after every delivery, reading the
/// engine's fields where they lie) must answer as `isQuiescent` does, in every state the engine
/// passes through: requests in flight, subscriptions and fetches wanted, zone operations and
/// changes pending, online and offline.
@Suite("Record engine quiescence in place")
struct RecordQuiescenceInPlaceTests {
    /// Checks every engine of the world; returns the answers seen.
    static func agree(_ world: RecordWorld, _ step: String) -> Set<Bool> {
        var seen: Set<Bool> = []
        for index in world.engines.indices {
            guard var engine = world.engines[index] else { continue }
            let expected = engine.isQuiescent
            #expect(engine.isQuiescentInPlace() == expected, "\(step), device \(index)")
            seen.insert(expected)
        }
        return seen
    }

    @Test("agrees with isQuiescent through launch, zone operations, pending changes, offline edits and deletion")
    func agreesWithTheGetter() {
        var world = RecordWorld(devices: 2)
        var seen = Self.agree(world, "launched, nothing sent yet")
        _ = world.createZone(0)
        seen.formUnion(Self.agree(world, "zone creation queued"))
        world.settle()
        seen.formUnion(Self.agree(world, "settled"))
        world.setOnline(1, false)
        _ = world.save(1, name: "r", [("n", text("1"))])
        seen.formUnion(Self.agree(world, "a change pending offline"))
        world.setOnline(1, true)
        seen.formUnion(Self.agree(world, "back online with the change pending"))
        world.settle()
        _ = world.save(0, name: "r", [("n", text("2"))])
        seen.formUnion(Self.agree(world, "a change pending online"))
        world.settle()
        _ = world.delete(1, name: "r")
        _ = world.deleteZone(0)
        seen.formUnion(Self.agree(world, "a delete and a zone deletion queued"))
        world.settle()
        world.advance(.minutes(10))
        seen.formUnion(Self.agree(world, "after ten minutes"))
        #expect(seen == [true, false], "both answers were checked")
    }
}
