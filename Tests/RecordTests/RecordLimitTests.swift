import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// Batching, request and record limits, atomic batches, quota and schema.
@Suite struct RecordLimitTests {
    static func backlog(_ count: Int, _ world: inout RecordWorld) {
        world.setOnline(0, false)
        for index in 0..<count { world.save(0, name: "m\(index)", [("subject", text("message \(index)"))]) }
    }

    @Test func aBacklogOf450SavesGoesInTwoBatchesWithinTheLimit() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        RecordLimitTests.backlog(450, &world)
        world.clearRecords()
        world.setOnline(0, true)
        world.settle()
        #expect(world.modifyRequests(0).map(\.itemCount) == [400, 50])
        #expect(world.local(1, "Z/m449", "subject") == field("message 449"))
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test func aRequestTheCloudFindsTooLargeIsSplitAndResent() {
        // The engine believes in bigger batches than the cloud allows.
        var world = RecordWorld(engineLimits: Limits(records: RecordLimits(batch: 1000)))
        world.createZone(0); world.settle()
        RecordLimitTests.backlog(450, &world)
        world.clearRecords()
        world.setOnline(0, true)
        world.settle()
        #expect(world.modifyRequests(0).map(\.itemCount) == [450, 225, 225])
        #expect(world.rejections().isEmpty)
        #expect(world.cloud("Z/m0", "subject") == field("message 0"))
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func theByteLimitSplitsBatchesToo() {
        var world = RecordWorld(limits: Limits(records: RecordLimits(requestBytes: 1000)))
        world.createZone(0); world.settle()
        world.setOnline(0, false)
        for index in 0..<5 { world.save(0, name: "m\(index)", [("body", text(String(repeating: "x", count: 300)))]) }
        world.clearRecords()
        world.setOnline(0, true)
        world.settle()
        #expect(world.modifyRequests(0).allSatisfy { $0.sizeBytes <= 1000 })
        #expect(world.modifyRequests(0).map(\.itemCount) == [3, 2])
        #expect(world.cloud("Z/m4", "body") != .absent)
    }

    @Test func aRecordOverTheSizeLimitIsRejectedAndRolledBack() {
        var world = RecordWorld(limits: Limits(records: RecordLimits(recordBytes: 100)))
        world.createZone(0); world.settle()
        let (write, result) = world.save(0, name: "big", [("body", text(String(repeating: "x", count: 200)))])
        #expect(result == .accepted)
        world.settle()
        let rejected = world.rejections(0)
        #expect(rejected.contains { $0.0 == write && $0.2 == "limitExceeded" && $0.3 == "records.recordBytes" })
        #expect(world.local(0, "Z/big", "") == .absent)
        #expect(world.cloud("Z/big", "") == .absent)
        #expect(world.observations(0).contains { if case .visible(_, .absent, nil, .rollback) = $0 { return true } else { return false } })
        #expect(world.notifications.contains { $0.device == 0 && $0.1.reason == "error" })
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test("a record exactly at the size limit fits, whatever asset fields it also has: assets are excluded with their names")
    func assetFieldsDoNotCountTowardTheRecordSize() {
        var world = RecordWorld(limits: Limits(records: RecordLimits(recordBytes: 60)))
        world.createZone(0); world.settle()
        // "body" (4 bytes) + 56 bytes of text = 60 bytes, plus an asset and a list of assets.
        let (write, _) = world.save(0, name: "r", [("body", text(String(repeating: "x", count: 56))),
                                                    ("image", .asset(sizeBytes: 5000)),
                                                    ("thumbnails", .list([.asset(sizeBytes: 10), .asset(sizeBytes: 20)]))])
        world.settle()
        #expect(!world.rejections(0).contains { $0.0 == write })
        #expect(world.cloud("Z/r", "body") == .field(.string(String(repeating: "x", count: 56))))
        #expect(FieldValue.list([]).isAssetOnly == false)
        #expect(FieldValue.list([.asset(sizeBytes: 1), .string("a")]).isAssetOnly == false)
    }

    @Test func aTooLargeEditRollsBackToTheLastServerValue() {
        var world = RecordSyncTests.world()
        let limited = Limits(records: RecordLimits(recordBytes: 100))
        world.service = RecordService(configuration: CloudConfiguration(accountCount: 2, limits: limited, settings: EngineSettings(), environment: .development))
        // A fresh cloud: recreate the zone and record there first.
        world.createZone(0); world.settle()
        world.save(0, name: "n2", [("title", text("small"))]); world.settle()
        world.save(0, name: "n2", [("title", text(String(repeating: "y", count: 150)))]); world.settle()
        #expect(world.local(0, "Z/n2", "title") == field("small"))
        #expect(world.cloud("Z/n2", "title") == field("small"))
    }

    @Test func anAssetOverTheAssetLimitIsRejected() {
        var world = RecordWorld(limits: Limits(records: RecordLimits(assetBytes: 1000)))
        world.createZone(0); world.settle()
        world.save(0, name: "photo", [("image", .asset(sizeBytes: 5000))]); world.settle()
        #expect(world.rejections(0).contains { $0.3 == "records.assetBytes" })
        #expect(world.cloud("Z/photo", "") == .absent)
    }

    @Test func anAtomicBatchIsAllOrNothing() {
        var world = RecordWorld(limits: Limits(records: RecordLimits(recordBytes: 100)))
        world.createZone(0); world.settle()
        let write = world.nextWrite(0)
        let saves = [
            RecordFieldsChange(database: .private, zone: "Z", type: "Account", name: "from", fields: [FieldAssignment(name: "balance", value: .int(50))]),
            RecordFieldsChange(database: .private, zone: "Z", type: "Account", name: "to", fields: [FieldAssignment(name: "memo", value: text(String(repeating: "z", count: 200)))]),
        ]
        let result = world.call(0) { engine, ctx in engine.saveAtomic(database: .private, zone: "Z", saves: saves, deletes: [], write: write, &ctx) }
        #expect(result == .accepted)
        world.settle()
        #expect(world.modifyRequests(0).first?.atomic == true)
        #expect(world.cloud("Z/from", "") == .absent)
        #expect(world.cloud("Z/to", "") == .absent)
        // Both records roll back on the device: no partial view of the atomic write remains.
        #expect(world.local(0, "Z/from", "balance") == .absent)
        #expect(world.local(0, "Z/to", "") == .absent)
        #expect(world.engine(0).pendingWrites().isEmpty)
    }

    @Test func anAtomicBatchThatFitsAppliesTogether() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        world.save(0, name: "old", [("x", .int(1))]); world.settle()
        let write = world.nextWrite(0)
        let saves = [RecordFieldsChange(database: .private, zone: "Z", type: "Item", name: "new", fields: [FieldAssignment(name: "x", value: .int(2))])]
        world.call(0) { engine, ctx in engine.saveAtomic(database: .private, zone: "Z", saves: saves, deletes: ["old"], write: write, &ctx) }
        world.settle()
        #expect(world.cloud("Z/new", "x") == .field(.int(2)))
        #expect(world.cloud("Z/old", "") == .absent)
        #expect(world.local(1, "Z/new", "x") == .field(.int(2)))
        #expect(world.local(1, "Z/old", "") == .absent)
    }

    @Test func assetsCountAgainstTheQuotaAndAreCollectedWithTheirRecord() {
        var world = RecordWorld(limits: Limits(storageBytes: 10_000))
        world.createZone(0); world.settle()
        world.save(0, name: "p1", [("image", .asset(sizeBytes: 6000))]); world.settle()
        #expect(world.storage.used(by: AccountID(0)) >= 6000)
        let (second, _) = world.save(0, name: "p2", [("image", .asset(sizeBytes: 6000))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == second && $0.2 == "quotaExceeded" && $0.3 == "storage" })
        // Not lost: still pending, shown, and blocked (the engine is quiescent).
        #expect(world.local(0, "Z/p2", "image") == .field(.asset(sizeBytes: 6000)))
        #expect(world.engine(0).pendingWrites().contains { $0.0 == second })
        #expect(world.engine(0).isQuiescent)
        // Deleting the first record frees its asset; the blocked save goes through.
        world.delete(0, name: "p1"); world.settle()
        #expect(world.cloud("Z/p2", "image") == .field(.asset(sizeBytes: 6000)))
        #expect(world.storage.used(by: AccountID(0)) < 7000)
        #expect(world.engine(0).pendingWrites().isEmpty)
        // Reported once, not once per retry.
        #expect(world.rejections(0).filter { $0.0 == second && $0.1.field == "image" }.count == 1)
    }

    @Test func productionRejectsUnknownTypesAndFields() {
        var world = RecordWorld(environment: .production)
        world.createZone(0); world.settle()
        let (write, _) = world.save(0, name: "n1", [("title", text("x"))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == write && $0.2 == "invalidArguments" && $0.3 == nil })
        #expect(world.local(0, "Z/n1", "") == .absent)
        world.service.declareSchema(type: "Note", fields: [("title", "string")])
        world.save(0, name: "n2", [("title", text("ok"))]); world.settle()
        #expect(world.cloud("Z/n2", "title") == field("ok"))
        let (unknownField, _) = world.save(0, name: "n2", [("color", text("red"))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == unknownField })
        #expect(world.local(0, "Z/n2", "color") == .absent)
        #expect(world.local(0, "Z/n2", "title") == field("ok"))
    }

    @Test func aSchemaDeployedBeforeTheRunIsWhatProductionAccepts() {
        var world = RecordWorld(environment: .production, schema: [RecordTypeSchema(type: "Note", fields: ["title": "string", "tags": "list<string>"])])
        world.createZone(0); world.settle()
        let (accepted, _) = world.save(0, name: "n1", [("title", text("deployed")), ("tags", .list([.string("a")]))]); world.settle()
        #expect(!world.rejections(0).contains { $0.0 == accepted })
        #expect(world.cloud("Z/n1", "title") == field("deployed"))
        let (undeployed, _) = world.save(0, name: "n1", [("body", text("not deployed"))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == undeployed && $0.2 == "invalidArguments" })
        #expect(world.local(0, "Z/n1", "body") == .absent)
        let (wrongKind, _) = world.save(0, name: "n1", [("title", .int(3))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == wrongKind && $0.2 == "invalidArguments" })
        #expect(world.local(0, "Z/n1", "title") == field("deployed"))
    }

    @Test func anEmptyListFitsAnyListFieldAndTakesTheKindOfTheFirstNonEmptyOne() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        let (empty, _) = world.save(0, name: "n1", [("tags", .list([]))]); world.settle()
        let (strings, _) = world.save(0, name: "n1", [("tags", .list([.string("a")]))]); world.settle()
        let (emptyAgain, _) = world.save(0, name: "n1", [("tags", .list([]))]); world.settle()
        #expect(world.rejections(0).filter { [empty, strings, emptyAgain].contains($0.0) }.isEmpty)
        let (ints, _) = world.save(0, name: "n1", [("tags", .list([.int(1)]))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == ints && $0.2 == "invalidArguments" })
    }

    @Test func developmentCreatesTheSchemaButRejectsTypeChanges() {
        var world = RecordWorld()
        world.createZone(0); world.settle()
        world.save(0, name: "n1", [("count", .int(1))]); world.settle()
        #expect(world.cloud("Z/n1", "count") == .field(.int(1)))
        let (change, _) = world.save(0, name: "n1", [("count", text("one"))]); world.settle()
        #expect(world.rejections(0).contains { $0.0 == change && $0.2 == "invalidArguments" })
        #expect(world.local(0, "Z/n1", "count") == .field(.int(1)))
    }
}
