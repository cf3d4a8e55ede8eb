import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

@Suite struct RecordSyncTests {
    /// Two devices, zone `Z` created by A, and note `n1` saved by A and fetched by B.
    static func world(_ settings: EngineSettings = EngineSettings()) -> RecordWorld {
        var world = RecordWorld(settings: settings)
        world.createZone(0)
        world.settle()
        world.save(0, name: "n1", [("title", text("Groceries")), ("body", text("milk"))])
        world.settle()
        return world
    }

    @Test func aSaveReportsEachChangedFieldAsLocallyVisibleBeforeReturning() {
        var world = RecordSyncTests.world()
        world.clearRecords()
        let (write, result) = world.save(0, name: "n1", [("title", text("Groceries")), ("body", text("milk, eggs"))])
        #expect(result == .accepted)
        let visible = world.observations(0).compactMap { observation -> (String, WriteID?)? in
            if case .visible(let item, _, let w, .local) = observation { return (item.field, w) } else { return nil }
        }
        // Only the field whose value differs is touched.
        #expect(visible.map(\.0) == ["body"])
        #expect(visible.first?.1 == write)
    }

    @Test func aSaveThatChangesNothingIsNoWrite() {
        var world = RecordSyncTests.world()
        world.clearRecords()
        let (_, result) = world.save(0, name: "n1", [("title", text("Groceries"))])
        #expect(result == .unchanged)
        #expect(world.observations(0).isEmpty)
        #expect(world.sent.isEmpty)
    }

    @Test func theCloudKeepsTheWriteIDOfEachField() {
        var world = RecordSyncTests.world()
        let (write, _) = world.save(1, name: "n1", [("body", text("milk, eggs"))])
        world.settle()
        #expect(world.cloudWrite("Z/n1", "body") == write)
        #expect(world.cloudWrite("Z/n1", "title") == WriteID(device: DeviceID(0), sequence: 2))
        #expect(world.local(0, "Z/n1", "body") == field("milk, eggs"))
    }

    @Test func everyServerWriteGetsANewChangeTag() {
        var world = RecordSyncTests.world()
        let before = world.engine(0).durable.serverRecords[RecordKey(database: .private, zone: "Z", name: "n1")]?.changeTag
        world.save(0, name: "n1", [("title", text("Shopping"))])
        world.settle()
        let after = world.engine(0).durable.serverRecords[RecordKey(database: .private, zone: "Z", name: "n1")]?.changeTag
        #expect(before != nil && after != nil && before != after)
    }

    @Test func theEngineSubscribesToThePrivateDatabaseByItselfOnFirstLaunch() {
        let world = RecordWorld()
        let subscriptions = world.sent.filter { if case .createSubscription(.private) = $0.request { return true } else { return false } }
        #expect(subscriptions.count == 2)
        var again = world
        again.clearRecords()
        again.call(0) { engine, ctx in engine.createSubscription(database: .private, &ctx); return .accepted }
        again.settle()
        #expect(again.sent.isEmpty)
    }

    @Test func theCloudDoesNotPushTheOriginator() {
        var world = RecordSyncTests.world()
        world.clearRecords()
        world.save(0, name: "n1", [("title", text("Shopping"))])
        world.settle()
        let fetchesByA = world.sent.filter { $0.device == 0 && { if case .fetchDatabaseChanges = $0.request { return true } else { return false } }($0) }
        let fetchesByB = world.sent.filter { $0.device == 1 && { if case .fetchDatabaseChanges = $0.request { return true } else { return false } }($0) }
        #expect(fetchesByA.isEmpty)
        #expect(fetchesByB.count == 1)
    }

    @Test func aFetchReportsFetchedValuesAndNotifiesTheApp() {
        let world = RecordSyncTests.world()
        let fetched = world.observations(1).filter { if case .visible(_, _, _, .fetch) = $0 { return true } else { return false } }
        #expect(fetched.count == 3) // existence, title, body
        #expect(world.notifications.contains { $0.device == 1 && $0.1.reason == "fetched" && $0.1.items == ["Z/n1"] })
    }

    @Test func engineTraceUsesCKSyncEngineEventNames() {
        let world = RecordSyncTests.world()
        let events = Set(world.logs.map(\.event))
        for name in ["willFetchChanges", "fetchedDatabaseChanges", "fetchedRecordZoneChanges", "didFetchChanges",
                     "willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges", "didSendChanges"] {
            #expect(events.contains(name), "missing \(name)")
        }
    }

    @Test func deletesReachTheOtherDeviceWithTheDeleteWrite() {
        var world = RecordSyncTests.world()
        let (write, result) = world.delete(0, name: "n1")
        #expect(result == .accepted)
        world.settle()
        #expect(world.cloud("Z/n1", "") == .absent)
        #expect(world.local(1, "Z/n1", "title") == .absent)
        let absences = world.observations(1).filter { if case .visible(_, .absent, write, .fetch) = $0 { return true } else { return false } }
        #expect(absences.count == 3)
    }

    @Test func aLostResponseIsResentWithoutAFalseConflict() {
        var world = RecordSyncTests.world()
        world.loseResponses = 1
        world.save(0, name: "n1", [("title", text("Shopping"))])
        world.settle()
        #expect(!world.engine(0).isQuiescent) // waiting on the retry timer
        world.advance(.seconds(2))
        #expect(world.conflictsDetected() == 0)
        #expect(world.engine(0).pendingWrites().isEmpty)
        #expect(world.cloud("Z/n1", "title") == field("Shopping"))
        #expect(world.engine(0).isQuiescent)
    }

    @Test func changesMadeOfflineAreSentOnReconnect() {
        var world = RecordSyncTests.world()
        world.setOnline(0, false)
        world.save(0, name: "n2", [("title", text("offline"))])
        world.settle()
        #expect(world.engine(0).isQuiescent) // only waiting for the network
        #expect(world.engine(0).pendingWrites().count == 2)
        world.setOnline(0, true)
        world.settle()
        #expect(world.cloud("Z/n2", "title") == field("offline"))
        #expect(world.local(1, "Z/n2", "title") == field("offline"))
    }

    @Test func requestIDsStayUniqueAcrossACrash() {
        var world = RecordSyncTests.world()
        let before = world.engine(0).durable.requestCounter
        world.crashAndRestart(0)
        world.settle()
        #expect(world.engine(0).durable.requestCounter > before)
    }
}
