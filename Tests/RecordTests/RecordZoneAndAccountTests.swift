import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// Deletes meeting edits, zones, token expiry, the public database, retries and accounts.
@Suite struct RecordZoneAndAccountTests {
    @Test func theDefaultZoneHasNoChangeTrackingSoOtherDevicesDoNotSeeItsRecords() {
        var world = RecordWorld()
        world.save(1, zone: RecordID.defaultZone, type: "Contact", name: "c1", [("name", text("Ada"))])
        world.settle()
        world.deliver(.foreground, to: 0)
        world.settle()
        #expect(world.cloud("_defaultZone/c1", "name") == field("Ada"))
        #expect(world.local(0, "_defaultZone/c1", "name") == .absent)
        #expect(!world.converged(0))
        #expect(world.converged(1))
    }

    @Test func savingIntoAMissingZoneRecreatesItAndUploadsAgain() {
        var world = RecordWorld()
        // No zone.create: the first save meets zoneNotFound.
        world.save(0, zone: "Inbox", name: "m1", [("subject", text("hi"))])
        world.settle()
        #expect(world.cloud("Inbox/m1", "subject") == field("hi"))
        #expect(world.sent.contains { if case .modifyZones(_, let saves, _) = $0.request { return saves == ["Inbox"] } else { return false } })
        #expect(world.local(1, "Inbox/m1", "subject") == field("hi"))
        #expect(world.rejections().isEmpty)
    }

    @Test func aZoneDeletedElsewhereIsRecreatedWithThePendingRecords() {
        var world = RecordSyncTests.world()
        world.setOnline(1, false)
        let (edit, _) = world.save(1, name: "n1", [("body", text("eggs"))])
        let (zoneDelete, _) = world.deleteZone(0)
        world.settle()
        #expect(world.cloud("Z/n1", "") == .absent)
        #expect(world.local(0, "Z/n1", "") == .absent)
        world.setOnline(1, true)
        world.settle()
        #expect(world.cloud("Z/n1", "body") == field("eggs"))
        #expect(world.cloudWrite("Z/n1", "body") == edit)
        // The untouched field comes back by a write made after the delete (not the original one).
        #expect(world.cloudWrite("Z/n1", "title")?.derived == true)
        #expect(world.cloudWrite("Z/n1", "title") != zoneDelete)
        world.deliver(.foreground, to: 0); world.settle()
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func aZoneTheUserDeletedDropsLocalDataAndUploadsNothingMore() {
        var world = RecordSyncTests.world()
        world.setOnline(1, false)
        let (edit, _) = world.save(1, name: "n1", [("body", text("eggs"))])
        world.deleteZone(0, byUser: true)
        world.settle()
        world.setOnline(1, true)
        world.settle()
        #expect(world.local(1, "Z/n1", "") == .absent)
        #expect(world.observations(1).contains { if case .discarded(edit, _, let reason) = $0 { return reason.contains("deleted by the user") } else { return false } })
        #expect(world.observations(1).contains { if case .visible(_, .absent, _, .reset) = $0 { return true } else { return false } })
        world.clearRecords()
        world.save(1, name: "n9", [("title", text("after"))])
        world.settle()
        #expect(world.modifyRequests(1).isEmpty)
        #expect(world.engine(1).isQuiescent)
        #expect(world.cloud("Z/n9", "") == .absent)
    }

    @Test func anEditOfARecordDeletedElsewhereIsUploadedAgainAsANewRecord() {
        var world = RecordSyncTests.world()
        world.setOnline(1, false)
        let (edit, _) = world.save(1, name: "n1", [("body", text("eggs"))])
        let (deleteWrite, _) = world.delete(0, name: "n1")
        world.settle()
        world.setOnline(1, true)
        world.settle()
        #expect(world.cloud("Z/n1", "body") == field("eggs"))
        #expect(world.cloudWrite("Z/n1", "body") == edit)
        #expect(world.cloudWrite("Z/n1", "")?.derived == true)
        #expect(world.cloudWrite("Z/n1", "") != deleteWrite)
        #expect(world.conflictsDetected() == 1)
        world.deliver(.foreground, to: 0); world.settle()
        #expect(world.local(0, "Z/n1", "body") == field("eggs"))
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func unknownItemFromTheCloudTriggersTheReupload() {
        var world = RecordSyncTests.world()
        world.setOnline(1, false)
        world.save(1, name: "n1", [("body", text("eggs"))])
        world.delete(0, name: "n1")
        world.settle()
        // B sends before it has fetched anything: the save meets unknownItem.
        world.online[1] = true
        world.call(1) { engine, ctx in engine.handle(.connectivity(online: true), &ctx); return .accepted }
        world.settle()
        #expect(world.cloud("Z/n1", "body") == field("eggs"))
        #expect(world.conflictsDetected(1) == 1)
    }

    @Test func anUnconditionalDeleteRemovesAnEditTheDeleterNeverSaw() {
        var world = RecordSyncTests.world()
        world.setOnline(0, false)
        world.save(1, name: "n1", [("body", text("eggs"))]); world.settle()
        world.delete(0, name: "n1")
        world.setOnline(0, true); world.settle()
        #expect(world.cloud("Z/n1", "") == .absent)
        #expect(world.local(1, "Z/n1", "") == .absent)
    }

    @Test func expiredChangeTokensMakeTheEngineFetchFromScratch() {
        var world = RecordSyncTests.world()
        world.service.expireTokens()
        world.save(0, name: "n2", [("title", text("after expiry"))])
        world.settle()
        #expect(world.local(1, "Z/n2", "title") == field("after expiry"))
        #expect(world.sent.contains { $0.device == 1 && { if case .fetchDatabaseChanges(_, nil) = $0.request { return true } else { return false } }($0) })
        #expect(world.converged(1))
    }

    @Test func deletingARecordCascadesAlongDeleteSelfReferences() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        world.save(0, type: "List", name: "weekend", [("title", text("Weekend"))])
        world.save(0, type: "Item", name: "i1", [("text", text("hike")), ("list", .reference(recordName: "weekend", action: .deleteSelf))])
        world.save(0, type: "Tag", name: "t1", [("list", .reference(recordName: "weekend", action: .none))])
        world.settle()
        #expect(world.local(1, "Z/i1", "text") == field("hike"))
        let (write, _) = world.delete(1, name: "weekend")
        // The cascade is part of the same operation on the deleting device.
        #expect(world.local(1, "Z/i1", "") == .absent)
        #expect(world.observations(1).contains { if case .visible(let item, .absent, write, .local) = $0 { return item.name == "Z/i1" } else { return false } })
        world.settle()
        #expect(world.cloud("Z/i1", "") == .absent)
        #expect(world.cloud("Z/t1", "list") == .field(.reference(recordName: "weekend", action: .none)))
        #expect(world.local(0, "Z/i1", "") == .absent)
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func theCloudCascadesRecordsTheDeleterHadNotSeen() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        world.save(0, type: "List", name: "l", [("title", text("L"))]); world.settle()
        world.setOnline(1, false)
        world.save(0, type: "Item", name: "child", [("list", .reference(recordName: "l", action: .deleteSelf))]); world.settle()
        world.delete(1, name: "l")
        world.setOnline(1, true); world.settle()
        #expect(world.cloud("Z/child", "") == .absent)
        #expect(world.local(0, "Z/child", "") == .absent)
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func retryAfterIsHonoured() {
        var world = RecordSyncTests.world()
        world.throttleUntil = world.now + 60_000_000
        world.throttleRetryAfter = .seconds(20)
        world.clearRecords()
        world.save(0, name: "n2", [("title", text("throttled"))])
        world.settle()
        #expect(world.modifyRequests(0).count == 1)
        world.advance(.seconds(19))
        #expect(world.modifyRequests(0).count == 1) // nothing before retryAfter
        world.advance(.seconds(2))
        #expect(world.modifyRequests(0).count == 2)
        world.advance(.minutes(3))
        #expect(world.cloud("Z/n2", "title") == field("throttled"))
        #expect(world.engine(0).isQuiescent)
    }

    @Test func theBacklogSurvivesACrashAndThrottling() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        RecordLimitTests.backlog(450, &world)
        world.crashAndRestart(0)
        world.throttleUntil = world.now + 60_000_000
        world.setOnline(0, true)
        world.settle()
        world.advance(.minutes(5))
        #expect(world.cloud("Z/m0", "subject") == field("message 0"))
        #expect(world.cloud("Z/m449", "subject") == field("message 449"))
        #expect(world.local(1, "Z/m449", "subject") == field("message 449"))
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test func publicRecordsCanBeChangedOnlyByTheirCreator() {
        var world = RecordWorld(accounts: [AccountID(0), AccountID(1)])
        world.call(1) { engine, ctx in engine.createSubscription(database: .public, &ctx); return .accepted }
        world.settle()
        world.save(0, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("hello"))], database: .public)
        world.settle()
        #expect(world.cloud("_defaultZone/p1", "text", account: .publicDatabase) == field("hello"))
        #expect(world.local(1, "_defaultZone/p1", "text", account: .publicDatabase) == field("hello"))
        let (edit, _) = world.save(1, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("hijack"))], database: .public)
        world.settle()
        #expect(world.rejections(1).contains { $0.0 == edit && $0.2 == "permissionFailure" })
        #expect(world.local(1, "_defaultZone/p1", "text", account: .publicDatabase) == field("hello"))
        let (deleteWrite, _) = world.delete(1, zone: RecordID.defaultZone, name: "p1", database: .public)
        world.settle()
        #expect(world.rejections(1).contains { $0.0 == deleteWrite && $0.2 == "permissionFailure" })
        #expect(world.local(1, "_defaultZone/p1", "text", account: .publicDatabase) == field("hello"))
        #expect(world.cloud("_defaultZone/p1", "", account: .publicDatabase) != .absent)
    }

    @Test func signingOutDiscardsPendingChangesAndDropsTheAccountsRecords() {
        var world = RecordSyncTests.world()
        world.setOnline(0, false)
        let (pendingWrite, _) = world.save(0, name: "n1", [("title", text("unsent"))])
        world.accounts[0] = nil
        world.deliver(.signedOut, to: 0)
        #expect(world.observations(0).contains { if case .discarded(pendingWrite, _, "discarded at sign-out") = $0 { return true } else { return false } })
        #expect(world.engine(0).localView().isEmpty)
        #expect(world.engine(0).pendingWrites().isEmpty)
        // Saved while signed out: stays local, uploads after the next sign-in.
        world.save(0, name: "n5", [("title", text("signed out"))])
        world.setOnline(0, true)
        world.settle()
        #expect(world.cloud("Z/n5", "") == .absent)
        world.accounts[0] = AccountID(0)
        world.deliver(.signedIn(AccountID(0)), to: 0)
        world.settle()
        #expect(world.cloud("Z/n5", "title") == field("signed out"))
        #expect(world.local(0, "Z/n1", "title") == field("Groceries"))
        #expect(world.converged(0))
    }

    @Test func signingIntoAnotherAccountStartsFromThatAccountsData() {
        var world = RecordSyncTests.world()
        world.accounts[1] = AccountID(1)
        world.deliver(.signedIn(AccountID(1)), to: 1)
        world.settle()
        #expect(world.local(1, "Z/n1", "") == .absent)
        #expect(world.engine(1).localView().allSatisfy { $0.item.account == AccountID(1) })
        world.save(1, name: "b1", [("title", text("bob"))])
        world.settle()
        #expect(world.cloud("Z/b1", "title", account: AccountID(1)) == field("bob"))
        #expect(world.cloud("Z/b1", "") == .absent)
        #expect(world.local(0, "Z/b1", "") == .absent)
    }
}
