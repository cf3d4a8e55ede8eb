import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// An atomic call the cloud refuses whole leaves nothing of itself to go out, and the device's
/// own other writes on its records are not refused with it (fix31, records seed 4053).
@Suite("Records: an atomic call refused whole over the batch limit")
struct RefusedAtomicCallGroupTests {
    /// One device, the cloud's batch limit 1, the zone and records r0 and r1 made.
    static func world() -> RecordWorld {
        var world = RecordWorld(devices: 1, limits: Limits(records: RecordLimits(batch: 1)))
        world.createZone(0)
        world.settle()
        world.save(0, name: "r0", [("title", text("a"))])
        world.save(0, name: "r1", [("n", text("1"))])
        world.settle()
        return world
    }

    /// A's plain save P is pending when call X replaces its title (r0) and sets r1; X is on the
    /// wire when call Y sets r1 again (Y joins X's group). The cloud refuses X whole (two
    /// records). Before: r1's save of X, sent with X, went out again alone and was applied (X
    /// in part in the cloud), and P, put back on r0, went out with Y in one atomic request that
    /// the cloud refused for the batch limit too.
    @Test func aRefusedCallsSaveOnARecordLaterCallsReplacedDoesNotGoOutAgainAndAPlainSaveGoesAlone() {
        var world = RefusedAtomicCallGroupTests.world()
        world.setOnline(0, false)
        let (plain, _) = world.save(0, name: "r0", [("title", text("P"))])
        let call = RecordRetryTests.saveAtomic(&world, 0, [("r1", [("title", text("X"))]), ("r0", [("title", text("X"))])])
        world.setOnline(0, true)
        let later = RecordRetryTests.saveAtomic(&world, 0, [("r1", [("title", text("Y"))])])
        world.settle()
        world.advance(.seconds(120))
        #expect(Set(world.rejections(0).map(\.0)) == [call])
        #expect(!world.rejections(0).contains { $0.0 == plain || $0.0 == later })
        // X went out once, in the request the cloud refused: never again, in part.
        let requestsWithX = world.modifyRequests(0).filter { modify in modify.saves.contains { $0.fields.values.contains { $0.write == call } } }
        #expect(requestsWithX.count == 1)
        #expect(requestsWithX.first?.saves.count == 2)
        #expect(world.cloud("Z/r1", "title") == field("Y"))
        #expect(world.cloud("Z/r0", "title") == field("P"))
        #expect(world.local(0, "Z/r1", "title") == field("Y"))
        #expect(world.local(0, "Z/r0", "title") == field("P"))
        #expect(world.converged(0))
    }

    /// A's plain save P is on the wire when call X replaces its title; P is answered saved, then
    /// the cloud refuses X whole. P is the cloud's value now: r0 goes back to it and nothing is
    /// pending. Before: P came back pending at X's refusal and went out a second time.
    @Test func anAcknowledgedSaveAnAtomicCallReplacedIsNotPendingAgainAtTheCallsRefusal() {
        var world = RefusedAtomicCallGroupTests.world()
        let (plain, _) = world.save(0, name: "r0", [("title", text("P"))])
        let call = RecordRetryTests.saveAtomic(&world, 0, [("r1", [("title", text("X"))]), ("r0", [("title", text("X"))])])
        world.settle()
        #expect(Set(world.rejections(0).map(\.0)) == [call])
        #expect(world.engine(0).pendingWrites().isEmpty)
        let sendsOfPlain = world.modifyRequests(0).flatMap(\.saves).filter { $0.id.name == "r0" && $0.fields["title"]?.write == plain }
        #expect(sendsOfPlain.count == 1)
        #expect(world.local(0, "Z/r0", "title") == field("P"))
        #expect(world.cloud("Z/r0", "title") == field("P"))
        #expect(world.converged(0))
    }

    /// Call X is on the wire when call Y replaces every value X set (records seed 6877). The cloud
    /// refuses X whole, then Y. X has nothing left to roll back on the device, yet the app is told
    /// it was refused, on each item; before, X's refusal was reported nowhere (or, before its
    /// in-doubt save was dropped, that save went out again for ever).
    @Test func aRefusedCallWhoseEveryValueALaterCallReplacedIsStillReported() {
        var world = RefusedAtomicCallGroupTests.world()
        let call = RecordRetryTests.saveAtomic(&world, 0, [("r0", [("title", text("X"))]), ("r1", [("title", text("X"))])])
        let later = RecordRetryTests.saveAtomic(&world, 0, [("r0", [("title", text("Y"))]), ("r1", [("title", text("Y"))])])
        world.settle()
        let refusedItems = world.rejections(0).filter { $0.0 == call }.map(\.1)
        #expect(refusedItems.count == 2, "\(refusedItems)")
        #expect(world.rejections(0).contains { $0.0 == later })
        #expect(world.engine(0).pendingWrites().isEmpty)
        #expect(world.local(0, "Z/r0", "title") == world.cloud("Z/r0", "title"))
        #expect(world.converged(0))
    }
}
