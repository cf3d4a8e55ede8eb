import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// A save refused with `serverRecordChanged` whose server version no fetch brings again.
@Suite struct RecordRefusalTests {
    /// A's stored state lost the version B wrote (as records seed 8349 lost it before eca2467)
    /// while its change token is past that version: A's next save is refused with it and the
    /// fetch that follows brings nothing. A used to re-send and wait again without end (15,373
    /// re-sends in that run); now the conflict is resolved against the version the refusal
    /// carried, under the app's policy, and the run settles after one re-send.
    @Test func aRefusalNoFetchAnswersIsResolvedFromTheRefusedVersion() {
        var world = RecordSyncTests.world(EngineSettings(records: RecordSettings(conflict: .merge)))
        world.advance(.seconds(5))
        let key = RecordKey(database: .private, zone: "Z", name: "n1")
        let before = world.engine(0).durable
        world.save(1, name: "n1", [("body", text("milk, eggs"))])
        world.settle()
        world.advance(.seconds(5))
        #expect(world.local(0, "Z/n1", "body") == field("milk, eggs"))
        // A forgets that version; its zone token stays past it.
        var rewound = world.engine(0).durable
        rewound.serverRecords[key] = before.serverRecords[key]
        rewound.records[key] = before.records[key]
        world.engines[0] = RecordEngine(identity: world.identities[0], account: world.accounts[0], recovering: rewound)
        world.deliver(.launched, to: 0)
        world.settle()
        world.clearRecords()

        world.save(0, name: "n1", [("title", text("Shopping"))])
        world.settle(maxSteps: 10_000)
        world.advance(.seconds(30))

        // The refused save and its one re-send after the conflict is resolved.
        #expect(world.modifyRequests(0).count == 2)
        #expect(world.logs.filter { $0.device == 0 && $0.event == "conflictAwaitsFetch" }.count == 1)
        #expect(world.cloud("Z/n1", "title") == field("Shopping"))
        #expect(world.cloud("Z/n1", "body") == field("milk, eggs"))
        #expect(world.converged(0) && world.converged(1))
        #expect(world.rejections().isEmpty)
    }
}
