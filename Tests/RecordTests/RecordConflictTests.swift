import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// `serverRecordChanged` and fetched changes meeting pending changes, under each app policy.
@Suite struct RecordConflictTests {
    /// A renames `n1` offline (t=20s) while B edits its body offline (t=25s); A reconnects
    /// first (t=60s), then B (t=70s).
    static func offlineEdits(_ policy: RecordConflictPolicy, bTitle: String? = nil, bClockOffset: Int64 = 0) -> (RecordWorld, titleWrite: WriteID, bodyWrite: WriteID) {
        var world = RecordSyncTests.world(EngineSettings(records: RecordSettings(conflict: policy)))
        world.clockOffsets[1] = bClockOffset
        world.setOnline(0, false); world.setOnline(1, false)
        world.advance(.seconds(20))
        let (titleWrite, _) = world.save(0, name: "n1", [("title", text("Shopping"))])
        world.advance(.seconds(5))
        var fields: [(String, FieldValue?)] = [("body", text("milk, eggs"))]
        if let bTitle { fields.append(("title", text(bTitle))) }
        let (bodyWrite, _) = world.save(1, name: "n1", fields)
        world.advance(.seconds(35))
        world.setOnline(0, true)
        world.settle()
        world.advance(.seconds(10))
        world.setOnline(1, true)
        world.settle()
        world.advance(.seconds(10))
        return (world, titleWrite, bodyWrite)
    }

    @Test func clientWinsPutsStaleLocalFieldsBackWithTheirOriginalWriteIDs() {
        let (world, _, bodyWrite) = RecordConflictTests.offlineEdits(.clientWins)
        #expect(world.cloud("Z/n1", "title") == field("Groceries"))
        #expect(world.cloud("Z/n1", "body") == field("milk, eggs"))
        // The title A renamed is overwritten by the original save's write, not a new one.
        #expect(world.cloudWrite("Z/n1", "title") == WriteID(device: DeviceID(0), sequence: 2))
        #expect(world.cloudWrite("Z/n1", "body") == bodyWrite)
        #expect(world.converged(0) && world.converged(1))
        #expect(world.conflictsDetected() == 1)
    }

    @Test func serverWinsDropsTheLocalChange() {
        let (world, titleWrite, _) = RecordConflictTests.offlineEdits(.serverWins)
        #expect(world.cloud("Z/n1", "title") == field("Shopping"))
        #expect(world.cloud("Z/n1", "body") == field("milk"))
        #expect(world.cloudWrite("Z/n1", "title") == titleWrite)
        #expect(world.local(1, "Z/n1", "body") == field("milk"))
        #expect(world.engine(1).pendingWrites().isEmpty)
        #expect(world.converged(0) && world.converged(1))
        #expect(world.conflictsDetected() == 1)
    }

    @Test func mergeTakesTheLaterEditByDeviceClocksForAFieldChangedOnBothSides() {
        let (world, titleWrite, bodyWrite) = RecordConflictTests.offlineEdits(.merge, bTitle: "Errands")
        #expect(world.cloud("Z/n1", "title") == field("Errands"))
        #expect(world.cloudWrite("Z/n1", "title") == bodyWrite)
        let decisions = world.observations(1).compactMap { if case .lastWriterWins(let item, let chosen, let over, _) = $0 { return (item.field, chosen, over) } else { return nil } }
        #expect(decisions.count == 1)
        #expect(decisions.first?.0 == "title" && decisions.first?.1 == bodyWrite && decisions.first?.2 == titleWrite)
    }

    @Test func aSkewedClockInvertsTheMergeOrder() {
        // B's clock is a minute behind: its later edit looks older.
        let (world, titleWrite, bodyWrite) = RecordConflictTests.offlineEdits(.merge, bTitle: "Errands", bClockOffset: -60_000_000)
        #expect(world.cloud("Z/n1", "title") == field("Shopping"))
        #expect(world.cloudWrite("Z/n1", "title") == titleWrite)
        #expect(world.cloud("Z/n1", "body") == field("milk, eggs"))
        #expect(world.observations(1).contains { if case .lastWriterWins(_, titleWrite, bodyWrite, _) = $0 { return true } else { return false } })
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func equalValuesOnBothSidesAreNoConflictingChoice() {
        var world = RecordSyncTests.world()
        world.setOnline(0, false); world.setOnline(1, false)
        let (a, _) = world.save(0, name: "n1", [("title", text("Same"))])
        let (b, _) = world.save(1, name: "n1", [("title", text("Same"))])
        world.setOnline(0, true); world.settle()
        world.setOnline(1, true); world.settle()
        #expect(world.cloud("Z/n1", "title") == field("Same"))
        #expect(!world.observations().contains { if case .lastWriterWins = $0 { return true } else { return false } })
        // The merged value descends from both writes.
        #expect(world.observations(1).contains { if case .derivedWrite(_, _, _, let parents, _) = $0 { return parents == [a, b] } else { return false } })
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func aFetchedChangeMeetingAPendingChangeCountsOneConflict() {
        var world = RecordSyncTests.world()
        world.setOnline(1, false)
        world.save(0, name: "n1", [("title", text("Shopping"))])
        world.settle()
        world.save(1, name: "n1", [("body", text("bread"))])
        // B fetches (foreground) while still unable to send: simulate by a push-free fetch after reconnect.
        world.setOnline(1, true)
        world.settle()
        #expect(world.conflictsDetected(1) == 1)
        #expect(world.cloud("Z/n1", "title") == field("Shopping"))
        #expect(world.cloud("Z/n1", "body") == field("bread"))
    }

    @Test func concurrentCreationsOfTheSameRecordMerge() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        world.setOnline(0, false); world.setOnline(1, false)
        world.save(0, name: "x", [("a", text("from A"))])
        world.save(1, name: "x", [("b", text("from B"))])
        world.setOnline(0, true); world.settle()
        world.setOnline(1, true); world.settle()
        #expect(world.cloud("Z/x", "a") == field("from A"))
        #expect(world.cloud("Z/x", "b") == field("from B"))
        #expect(world.converged(0) && world.converged(1))
    }
}
