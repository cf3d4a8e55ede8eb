import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// Re-sent requests are the same write (SPEC §3.2, §6), atomic calls stay whole under every
/// policy, and a `retryAfter` survives a crash (SPEC §4).
@Suite("Records: retries, atomic groups under serverWins, retryAfter across a crash")
struct RecordRetryTests {
    /// A `records.saveAtomic` call on one device.
    @discardableResult
    static func saveAtomic(_ world: inout RecordWorld, _ device: Int, _ records: [(String, [(String, FieldValue?)])]) -> WriteID {
        let write = world.nextWrite(device)
        let saves = records.map { name, fields in
            RecordFieldsChange(database: .private, zone: "Z", type: "Note", name: name, fields: fields.map { FieldAssignment(name: $0.0, value: $0.1) })
        }
        world.call(device) { engine, ctx in engine.saveAtomic(database: .private, zone: "Z", saves: saves, deletes: [], write: write, &ctx) }
        return write
    }

    /// Both devices have the zone and have fetched.
    static func world(_ settings: EngineSettings = EngineSettings()) -> RecordWorld {
        var world = RecordWorld(settings: settings)
        world.createZone(0)
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        return world
    }

    @Test func aRetryAfterALostReplyIsNoConflictWithTheDevicesOwnSaveEvenWithNewerEditsAndAClockSetBack() {
        var world = RecordRetryTests.world()
        world.save(0, name: "r", [("n", text("0"))])
        world.settle()
        // t=0: the cloud applies n=1 but its reply is lost; A will retry after its backoff.
        world.loseResponses = 1
        world.save(0, name: "r", [("n", text("1"))])
        world.settle()
        // A's clock goes back an hour, then A edits again before the retry: by device clock the
        // lost save now looks newer than this edit.
        world.clockOffsets[0] = -3_600_000_000
        world.save(0, name: "r", [("n", text("2"))])
        world.advance(.seconds(10))
        #expect(world.conflictsDetected() == 0)
        #expect(world.cloud("Z/r", "n") == field("2"))
        #expect(world.converged(0) && world.converged(1))
    }

    /// Fuzz mixed seed 569: A's save is applied but its reply is lost; B sees it and deletes the
    /// record; A's retry must not bring it back (the cloud knows the save came before the delete).
    @Test func aResentSaveAppliedBeforeADeleteThatSawItDoesNotBringTheRecordBack() {
        var world = RecordRetryTests.world()
        world.loseResponses = 1
        world.save(0, name: "r", [("n", text("1"))])
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        #expect(world.local(1, "Z/r", "n") == field("1"))
        world.delete(1, name: "r")
        world.settle()
        world.advance(.seconds(40))
        #expect(world.cloud("Z/r", "n") == .absent)
        #expect(world.local(0, "Z/r", "n") == .absent)
        #expect(world.converged(0) && world.converged(1))
    }

    /// The same, but A edited another field before its retry: that edit is concurrent with the
    /// delete, so it wins and goes out as a new record (SPEC §4.3), without the deleted field.
    @Test func anEditMadeAfterTheResentSaveWinsOverTheDeleteAsANewRecord() {
        var world = RecordRetryTests.world()
        world.loseResponses = 1
        world.save(0, name: "r", [("n", text("1"))])
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        world.delete(1, name: "r")
        world.settle()
        world.save(0, name: "r", [("m", text("2"))])
        world.advance(.seconds(40))
        #expect(world.cloud("Z/r", "m") == field("2"))
        #expect(world.converged(0) && world.converged(1))
    }

    /// Fuzz mixed seed 79: A's delete is applied but its reply is lost; B re-creates the record;
    /// A's retry of the same delete changes nothing.
    @Test func aResentDeleteDoesNotDeleteARecordReCreatedSince() {
        var world = RecordRetryTests.world()
        world.save(0, name: "r", [("n", text("1"))])
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        world.loseResponses = 1
        world.delete(0, name: "r")
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        world.save(1, name: "r", [("n", text("again"))])
        world.settle()
        world.advance(.seconds(40))
        #expect(world.cloud("Z/r", "n") == field("again"))
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func anAtomicGroupResentAfterACrashDoesNotOverwriteAnEditMadeOnTopOfIt() {
        var world = RecordRetryTests.world()
        // A's clock is an hour ahead: a merge by device clock would prefer A's values.
        world.clockOffsets[0] = 3_600_000_000
        // The group is applied but A never hears of it (reply lost), then A crashes.
        world.loseResponses = 1
        RecordRetryTests.saveAtomic(&world, 0, [("x", [("v", text("x")), ("w", text("w"))]), ("y", [("v", text("y"))])])
        world.settle()
        // B sees the group and edits x on top of it.
        world.deliver(.foreground, to: 1)
        world.settle()
        #expect(world.local(1, "Z/x", "w") == field("w"))
        world.save(1, name: "x", [("w", text("w by B"))])
        world.settle()
        // A restarts and re-sends its durable queue.
        world.crashAndRestart(0)
        world.advance(.seconds(10))
        #expect(world.conflictsDetected() == 0)
        #expect(world.cloud("Z/x", "w") == field("w by B"))
        #expect(world.cloud("Z/y", "v") == field("y"))
        #expect(world.local(0, "Z/x", "w") == field("w by B"))
        #expect(world.converged(0) && world.converged(1))
    }

    @Test func theCloudAnswersAnExactResendOfAnAppliedSaveAsSavedAndChangesNothing() {
        var service = RecordService(configuration: CloudConfiguration(accountCount: 1, limits: Limits(), settings: EngineSettings(),
                                                                      environment: .development, schema: []))
        var storage = StorageLedger(accountCount: 1, quotaBytes: Limits().storageBytes)
        func modify(_ device: Int, _ request: RecordRequest) -> RecordResponse? {
            let envelope = RequestEnvelope(requestID: 1, device: DeviceID(index: device), account: AccountID(0), body: .records(request))
            var ctx = CloudContext(now: LocalInstant(microseconds: 0), arrival: 0)
            service.handle(envelope, request, &ctx, storage: &storage)
            for case .respond(let response) in ctx.actions { if case .ok(.records(let body)) = response.result { return body } }
            return nil
        }
        _ = modify(0, .modifyZones(database: .private, saves: ["Z"], deletes: []))
        let id = RecordID(zone: "Z", name: "x")
        let a1 = WriteID(device: DeviceID(index: 0), sequence: 1), b1 = WriteID(device: DeviceID(index: 1), sequence: 1)
        let save = RecordSave(id: id, type: "Note", fields: ["w": StoredField(value: text("w"), write: a1, modifiedAt: LocalInstant(microseconds: 0))],
                              baseTag: nil, existenceWrite: a1)
        let once = RecordModify(database: .private, saves: [save], deletes: [], atomic: true, savePolicy: .ifServerRecordUnchanged)
        guard case .recordsModified(let results)? = modify(0, .modifyRecords(once)), case .saved(let first)? = results.first else {
            Issue.record("first save failed"); return
        }
        // B edits on top of A's save.
        let edit = RecordSave(id: id, type: "Note", fields: ["w": StoredField(value: text("w by B"), write: b1, modifiedAt: LocalInstant(microseconds: 0))],
                              baseTag: first.changeTag, existenceWrite: a1)
        _ = modify(1, .modifyRecords(RecordModify(database: .private, saves: [edit], deletes: [], atomic: false, savePolicy: .ifServerRecordUnchanged)))
        // A re-sends its save exactly (its reply was lost): saved, B's edit stays.
        guard case .recordsModified(let resent)? = modify(0, .modifyRecords(once)), case .saved(let again)? = resent.first else {
            Issue.record("re-send was refused"); return
        }
        #expect(again.fields["w"]?.write == b1)
        #expect(service.finalView(account: AccountID(0)).contains { $0.item.field == "w" && $0.value == .field(text("w by B")) })
    }

    @Test func serverWinsDropsTheWholeAtomicCallNotJustTheConflictingRecord() {
        var world = RecordRetryTests.world(EngineSettings(records: RecordSettings(conflict: .serverWins)))
        RecordRetryTests.saveAtomic(&world, 0, [("x", [("v", .int(1))]), ("y", [("v", .int(1))])])
        world.settle()
        world.deliver(.foreground, to: 1)
        world.settle()
        // B moves both offline in one call; A edits x meanwhile.
        world.setOnline(1, false)
        RecordRetryTests.saveAtomic(&world, 1, [("x", [("v", .int(2))]), ("y", [("v", .int(2))])])
        world.save(0, name: "x", [("v", .int(3))])
        world.settle()
        world.setOnline(1, true)
        world.advance(.seconds(10))
        // The call failed whole (serverRecordChanged on x): serverWins drops all of it.
        #expect(world.conflictsDetected(1) == 1)
        #expect(world.cloud("Z/x", "v") == .field(.int(3)))
        #expect(world.cloud("Z/y", "v") == .field(.int(1)))
        #expect(world.local(1, "Z/y", "v") == .field(.int(1)))
        #expect(world.converged(0) && world.converged(1))
    }

    /// t=0: A's save is throttled (retryAfter 40 s); t=10s: A crashes and restarts, its clock
    /// moved by `clockShift` meanwhile.
    /// - Returns: the world and how many requests A had sent before the restart's.
    static func throttledThenRestarted(throttleFor: SimDuration, clockShift: Int64) -> (RecordWorld, Int) {
        var world = RecordRetryTests.world()
        world.throttleUntil = world.now + throttleFor.microseconds
        world.throttleRetryAfter = .seconds(40)
        world.save(0, name: "r", [("n", text("1"))])
        world.settle()
        world.advance(.seconds(10))
        world.clockOffsets[0] += clockShift
        world.crashAndRestart(0)
        return (world, world.sent.filter { $0.device == 0 }.count)
    }

    @Test func aRestartedEngineStillWaitsForTheCloudsRetryAfter() {
        var (world, before) = RecordRetryTests.throttledThenRestarted(throttleFor: .seconds(60), clockShift: 0)
        // t=10s..39s: nothing goes out.
        world.advance(.seconds(29))
        #expect(world.sent.filter { $0.device == 0 }.count == before)
        // t=40s: the wait is over.
        world.advance(.seconds(2))
        #expect(world.sent.filter { $0.device == 0 }.count > before)
    }

    @Test func aClockSetBackCannotStretchTheWaitPastTheRetryAfter() {
        // The clock goes back a day while the device is down.
        var (world, before) = RecordRetryTests.throttledThenRestarted(throttleFor: .seconds(30), clockShift: -86_400_000_000)
        // t=10s..49s: the wait is the 40 s retryAfter from the restart at most, not a day.
        world.advance(.seconds(39))
        #expect(world.sent.filter { $0.device == 0 }.count == before)
        world.advance(.seconds(2))
        #expect(world.sent.filter { $0.device == 0 }.count > before)
        #expect(world.cloud("Z/r", "n") == field("1"))
    }
}
