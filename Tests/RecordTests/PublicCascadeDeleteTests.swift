import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// A delete in the public database cascades along `deleteSelf` references as one operation (SPEC
/// §4.3): the records a device deletes only as the cascade wait for the root delete's answer, so
/// a root refused for permission (only a record's creator may delete it) takes nothing with it.
@Suite struct PublicCascadeDeleteTests {
    /// Bob (device 1) posts p; alice (device 0) comments c on it with a `deleteSelf` reference.
    private func world() -> RecordWorld {
        var world = RecordWorld(accounts: [AccountID(0), AccountID(1)])
        world.call(0) { engine, ctx in engine.createSubscription(database: .public, &ctx); return .accepted }
        world.call(1) { engine, ctx in engine.createSubscription(database: .public, &ctx); return .accepted }
        world.save(1, zone: RecordID.defaultZone, type: "Post", name: "p", [("title", text("bob's"))], database: .public)
        world.settle()
        world.save(0, zone: RecordID.defaultZone, type: "Comment", name: "c",
                   [("text", text("nice")), ("post", .reference(recordName: "p", action: .deleteSelf))], database: .public)
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        #expect(world.local(1, "_defaultZone/c", "text", account: .publicDatabase) == field("nice"))
        return world
    }

    private func sentDeletes(_ world: RecordWorld, _ device: Int) -> [String] {
        world.modifyRequests(device).flatMap { $0.deletes.map(\.id.name) }
    }

    @Test func aRefusedRootDeleteTakesNoCascadedRecordWithIt() {
        var world = world()
        let (delete, _) = world.delete(0, zone: RecordID.defaultZone, name: "p", database: .public)
        world.settle()
        #expect(world.rejections(0).contains { $0.0 == delete && $0.2 == "permissionFailure" })
        #expect(!sentDeletes(world, 0).contains("c"))
        #expect(world.cloud("_defaultZone/c", "text", account: .publicDatabase) == field("nice"))
        #expect(world.cloud("_defaultZone/p", "title", account: .publicDatabase) == field("bob's"))
        #expect(world.local(0, "_defaultZone/c", "text", account: .publicDatabase) == field("nice"))
        #expect(world.local(0, "_defaultZone/p", "title", account: .publicDatabase) == field("bob's"))
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test func aCascadeAlongACycleOfReferencesGoesOut() {
        var world = RecordWorld()
        world.save(0, zone: RecordID.defaultZone, type: "T", name: "p", [("other", .reference(recordName: "c", action: .deleteSelf))], database: .public)
        world.save(0, zone: RecordID.defaultZone, type: "T", name: "c", [("other", .reference(recordName: "p", action: .deleteSelf))], database: .public)
        world.settle()
        world.delete(0, zone: RecordID.defaultZone, name: "p", database: .public)
        world.settle()
        #expect(world.cloud("_defaultZone/p", "", account: .publicDatabase) == .absent)
        #expect(world.cloud("_defaultZone/c", "", account: .publicDatabase) == .absent)
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test func anAppliedRootDeleteCascadesInTheCloud() {
        var world = world()
        world.delete(1, zone: RecordID.defaultZone, name: "p", database: .public)
        world.settle()
        #expect(!sentDeletes(world, 1).contains("c"))
        #expect(world.cloud("_defaultZone/p", "", account: .publicDatabase) == .absent)
        #expect(world.cloud("_defaultZone/c", "", account: .publicDatabase) == .absent)
        #expect(world.local(1, "_defaultZone/c", "", account: .publicDatabase) == .absent)
        #expect(world.engine(1).pendingWrites().isEmpty)
        #expect(world.rejections(1).isEmpty)
    }
}
