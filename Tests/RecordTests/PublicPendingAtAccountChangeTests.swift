import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines

/// A public-database change still pending when its device leaves the account it was made in is
/// discarded with the account's other pending changes (SPEC §4.3 "Accounts"): it was made as that
/// account, and going up as the next one it would change another user's record (only a record's
/// creator may, SPEC §4.3 "Public database") or publish a record under the wrong creator.
@Suite struct PublicPendingAtAccountChangeTests {
    /// Bob (device 1) posts p1; alice (device 0), offline, edits it and posts p2, then the device
    /// signs out and into bob, and comes online.
    private func run(signOutFirst: Bool) -> (world: RecordWorld, edit: WriteID, post: WriteID) {
        var world = RecordWorld(accounts: [AccountID(0), AccountID(1)])
        world.call(0) { engine, ctx in engine.createSubscription(database: .public, &ctx); return .accepted }
        world.save(1, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("bob's"))], database: .public)
        world.settle()
        #expect(world.local(0, "_defaultZone/p1", "text", account: .publicDatabase) == field("bob's"))
        world.setOnline(0, false)
        let (edit, _) = world.save(0, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("alice was here"))], database: .public)
        let (post, _) = world.save(0, zone: RecordID.defaultZone, type: "Post", name: "p2", [("text", text("alice's"))], database: .public)
        if signOutFirst {
            world.accounts[0] = nil
            world.deliver(.signedOut, to: 0)
        }
        world.accounts[0] = AccountID(1)
        world.deliver(.signedIn(AccountID(1)), to: 0)
        world.setOnline(0, true)
        world.settle()
        return (world, edit, post)
    }

    private func discarded(_ world: RecordWorld, _ write: WriteID, _ reason: String) -> Bool {
        world.observations(0).contains { if case .discarded(write, _, let said) = $0 { return said == reason } else { return false } }
    }

    @Test(arguments: [true, false])
    func aPublicChangeMadeAsOneAccountNeverGoesUpAsTheNext(signOutFirst: Bool) {
        let (world, edit, post) = run(signOutFirst: signOutFirst)
        let reason = signOutFirst ? "discarded at sign-out" : "discarded at account switch"
        #expect(world.cloud("_defaultZone/p1", "text", account: .publicDatabase) == field("bob's"))
        #expect(world.cloud("_defaultZone/p2", "", account: .publicDatabase) == .absent)
        let editDiscarded = discarded(world, edit, reason), postDiscarded = discarded(world, post, reason)
        #expect(editDiscarded)
        #expect(postDiscarded)
        #expect(world.engine(0).pendingWrites().isEmpty)
        #expect(world.local(0, "_defaultZone/p1", "text", account: .publicDatabase) == field("bob's"))
        #expect(world.local(0, "_defaultZone/p2", "", account: .publicDatabase) == .absent)
    }

    @Test func aSignedOutDeviceStillShowsThePublicRecordsAsTheCloudHadThem() {
        var world = RecordWorld(accounts: [AccountID(0), AccountID(1)])
        world.call(0) { engine, ctx in engine.createSubscription(database: .public, &ctx); return .accepted }
        world.save(1, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("bob's"))], database: .public)
        world.settle()
        world.setOnline(0, false)
        world.save(0, zone: RecordID.defaultZone, type: "Post", name: "p1", [("text", text("alice was here"))], database: .public)
        world.save(0, zone: RecordID.defaultZone, type: "Post", name: "p2", [("text", text("alice's"))], database: .public)
        world.accounts[0] = nil
        world.deliver(.signedOut, to: 0)
        // The public database is world-readable: its records stay, back to the cloud's version.
        #expect(world.local(0, "_defaultZone/p1", "text", account: .publicDatabase) == field("bob's"))
        #expect(world.local(0, "_defaultZone/p2", "", account: .publicDatabase) == .absent)
        #expect(world.engine(0).pendingWrites().isEmpty)
    }
}
