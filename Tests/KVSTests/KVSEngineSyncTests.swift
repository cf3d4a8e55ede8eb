import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The device side applying what the cloud says: fetches, notifications, rollbacks, accounts.
@Suite struct KVSEngineSyncTests {
    typealias T = KVSTest

    func change(_ key: String, _ value: PlistValue?, _ write: WriteID, at seconds: Int64) -> KVSChange {
        KVSChange(key: key, value: value, write: write, timestamp: T.at(seconds))
    }

    /// Sends a fetch (synchronize) and answers it with `changes`; returns the answer's actions.
    func fetch(_ engine: inout KVSEngine, _ changes: [KVSChange], cursor: UInt64, at seconds: Int64 = 30) -> [EngineAction] {
        var sync = T.context(at: seconds)
        engine.synchronize(&sync)
        guard let id = T.fetches(sync.actions).first?.0 else {
            Issue.record("no fetch was sent")
            return []
        }
        var answer = T.context(at: seconds)
        engine.handle(.response(T.ok(id, .changes(changes, cursor: cursor))), &answer)
        return answer.actions
    }

    // MARK: Initial sync and notifications

    @Test func theFirstFetchIsTheInitialSyncAndListsTheKeysReceived() {
        var engine = KVSEngine(identity: T.identity(), account: T.main, recovering: nil)
        var launch = T.context()
        engine.handle(.launched, &launch)
        let first = T.fetches(launch.actions)
        #expect(first.count == 1 && first.first?.1 == nil, "a first launch syncs at once, asking for everything")
        var answer = T.context()
        engine.handle(.response(T.ok(first[0].0, .changes([change("b", .integer(2), T.write(1, 2), at: 1),
                                                           change("a", .integer(1), T.write(1, 1), at: 1),
                                                           change("gone", nil, T.write(1, 3), at: 1)], cursor: 3))), &answer)
        #expect(T.notifications(answer.actions) == [AppNotification(store: .kvs, reason: "initialSyncChange", items: ["a", "b"])],
                "exactly the keys whose value changed, sorted; a tombstone of an unseen key changes nothing")
        #expect(T.visible(answer.actions).map(\.key) == ["a", "b", "gone"])
        #expect(T.visible(answer.actions).allSatisfy { $0.cause == .fetch })
        #expect(engine.isQuiescent)
        let later = fetch(&engine, [change("a", .integer(5), T.write(1, 4), at: 2)], cursor: 4)
        #expect(T.notifications(later) == [AppNotification(store: .kvs, reason: "serverChange", items: ["a"])])
    }

    @Test func changesInKeyOrderOrNotAreAppliedAlike() {
        // The engine sorts only lists not already in key order; both must give the same facts.
        let ordered = [change("a", .integer(1), T.write(1, 1), at: 1), change("b", .integer(2), T.write(1, 2), at: 1),
                       change("b", .integer(3), T.write(1, 3), at: 2), change("é", nil, T.write(1, 4), at: 2)]
        var inOrder = T.launchedEngine(changes: [change("b", .integer(0), T.write(2, 1), at: 0)], cursor: 1)
        var shuffled = inOrder
        let fromOrdered = fetch(&inOrder, ordered, cursor: 5)
        let fromShuffled = fetch(&shuffled, [ordered[3], ordered[1], ordered[0], ordered[2]], cursor: 5)
        #expect(T.notifications(fromOrdered) == [AppNotification(store: .kvs, reason: "serverChange", items: ["a", "b"])])
        #expect(T.notifications(fromShuffled) == T.notifications(fromOrdered))
        #expect(T.visible(fromOrdered).map(\.key) == ["a", "b", "b", "é"])
        #expect(T.visible(fromShuffled).map(\.key) == T.visible(fromOrdered).map(\.key))
        #expect(inOrder.durable.values == shuffled.durable.values)
    }

    @Test func anEmptyInitialSyncSendsNoNotification() {
        var engine = KVSEngine(identity: T.identity(), account: T.main, recovering: nil)
        var launch = T.context()
        engine.handle(.launched, &launch)
        var answer = T.context()
        engine.handle(.response(T.ok(T.fetches(launch.actions)[0].0, .changes([], cursor: 0))), &answer)
        #expect(T.notifications(answer.actions).isEmpty)
        #expect(engine.durable.initialSyncDone)
    }

    @Test func aDeviceThatStartedOfflineHasItsInitialSyncWhenItFirstComesOnline() {
        var engine = KVSEngine(identity: T.identity(), account: T.main, recovering: nil)
        var start = T.context()
        engine.handle(.connectivity(online: false), &start)
        engine.handle(.launched, &start)
        #expect(T.sends(start.actions).isEmpty)
        var online = T.context(at: 60)
        engine.handle(.connectivity(online: true), &online)
        var answer = T.context(at: 60)
        engine.handle(.response(T.ok(T.fetches(online.actions)[0].0, .changes([change("a", .integer(1), T.write(1, 1), at: 1)], cursor: 1))), &answer)
        #expect(T.notifications(answer.actions).map(\.reason) == ["initialSyncChange"])
    }

    @Test func echoesOfTheAppsOwnWritesNotifyNothing() {
        var engine = T.launchedEngine()
        var write = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &write)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        var answer = T.context(at: 7)
        engine.handle(.response(T.ok(T.uploads(fire.actions)[0].0, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        let echo = fetch(&engine, [change("a", .integer(1), T.write(0, 1), at: 1)], cursor: 1)
        #expect(T.notifications(echo).isEmpty)
        #expect(T.visible(echo).isEmpty)
    }

    @Test func aFetchThatOnlyChangesTheWriteBehindAnEqualValueIsVisibleButNotListed() {
        var engine = T.launchedEngine(changes: [change("a", .integer(1), T.write(1, 1), at: 1)], cursor: 1)
        let actions = fetch(&engine, [change("a", .integer(1), T.write(2, 1), at: 2)], cursor: 2)
        #expect(T.visible(actions) == [T.Visible(key: "a", value: .kvs(.integer(1)), write: T.write(2, 1), cause: .fetch)])
        #expect(T.notifications(actions).isEmpty, "the value the app sees did not change")
    }

    // MARK: Fetched values against pending local writes

    @Test func aFetchedValueOlderThanAPendingLocalWriteDoesNotReplaceIt() {
        var engine = T.launchedEngine()
        var write = T.context(at: 100)
        _ = engine.set([(key: "a", value: .string("mine")), (key: "b", value: .string("mine"))], write: T.write(0, 1), &write)
        let actions = fetch(&engine, [change("a", .string("older"), T.write(1, 1), at: 50),
                                      change("b", .string("tie"), T.write(1, 2), at: 100)], cursor: 2, at: 101)
        #expect(T.visible(actions).isEmpty, "older and equal timestamps keep the pending write (it arrives later)")
        #expect(T.notifications(actions).isEmpty)
        #expect(T.view(engine) == ["a": .string("mine"), "b": .string("mine")])
    }

    @Test func aFetchedValueNewerThanAPendingLocalWriteReplacesIt() {
        var engine = T.launchedEngine()
        var write = T.context(at: 100)
        _ = engine.set([(key: "a", value: .string("mine"))], write: T.write(0, 1), &write)
        let actions = fetch(&engine, [change("a", .string("newer"), T.write(1, 1), at: 150)], cursor: 1, at: 101)
        #expect(T.visible(actions) == [T.Visible(key: "a", value: .kvs(.string("newer")), write: T.write(1, 1), cause: .fetch)])
        #expect(T.notifications(actions).map(\.items) == [["a"]])
        #expect(engine.pendingWrites().map(\.0) == [T.write(0, 1)], "the call still goes to the cloud, which decides")
    }

    @Test func underServerTimestampsAPendingLocalWriteAlwaysStays() {
        var engine = T.launchedEngine(source: .server)
        var write = T.context(at: 100)
        _ = engine.set([(key: "a", value: .string("mine"))], write: T.write(0, 1), &write)
        let actions = fetch(&engine, [change("a", .string("theirs"), T.write(1, 1), at: 9_999)], cursor: 1, at: 101)
        #expect(T.visible(actions).isEmpty)
    }

    @Test func keysTheCloudKeptForAnotherWriteAreAppliedAfterTheUpload() {
        var engine = T.launchedEngine()
        var write = T.context(at: 10)
        _ = engine.set([(key: "a", value: .string("mine"))], write: T.write(0, 1), &write)
        var fire = T.context(at: 15)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        var answer = T.context(at: 16)
        engine.handle(.response(T.ok(T.uploads(fire.actions)[0].0, .uploaded(accepted: [T.write(0, 1)], rejected: [],
            superseded: [change("a", .string("theirs"), T.write(1, 1), at: 20)]))), &answer)
        #expect(T.visible(answer.actions) == [T.Visible(key: "a", value: .kvs(.string("theirs")), write: T.write(1, 1), cause: .fetch)])
        #expect(T.notifications(answer.actions) == [AppNotification(store: .kvs, reason: "serverChange", items: ["a"])])
    }

    // MARK: Limits and invalid keys

    @Test(arguments: [
        (KVSLimits(keys: 2), [(key: "c", value: PlistValue.integer(3))], "kvs.keys"),
        (KVSLimits(totalBytes: 20), [(key: "a", value: PlistValue.string(String(repeating: "x", count: 13)))], "kvs.totalBytes"),
        (KVSLimits(valueBytes: 10), [(key: "c", value: PlistValue.string(String(repeating: "x", count: 11)))], "kvs.valueBytes"),
    ])
    func aLocalWriteThatWouldBreakALimitKeepsThePreviousValueAndNotifies(limits: KVSLimits, entries: [(key: String, value: PlistValue)], limit: String) {
        var engine = T.launchedEngine(limits: limits)
        var setup = T.context(at: 1)
        // 2 keys, 16 bytes.
        #expect(engine.set([(key: "a", value: .integer(1)), (key: "b", value: .integer(2))], write: T.write(0, 1), &setup) == .accepted)
        let before = engine.durable
        var context = T.context(at: 2)
        let result = engine.set(entries.map { (key: $0.key, value: Optional($0.value)) }, write: T.write(0, 2), &context)
        #expect(result == .rejected(error: "quotaViolation"))
        #expect(engine.durable == before, "nothing changed")
        #expect(T.visible(context.actions).isEmpty)
        #expect(T.rejected(context.actions) == entries.map { T.Rejected(write: T.write(0, 2), key: $0.key, error: "quotaViolation", limit: limit) })
        #expect(T.notifications(context.actions) == [AppNotification(store: .kvs, reason: "quotaViolationChange", items: entries.map(\.key))])
    }

    @Test func aKeyLongerThan64BytesIsAnInvalidArgumentAndChangesNothing() {
        var engine = T.launchedEngine()
        let before = engine.durable
        var context = T.context(at: 1)
        let long = String(repeating: "k", count: 65)
        let result = engine.set([(key: "ok", value: .integer(1)), (key: long, value: .integer(2))], write: T.write(0, 1), &context)
        #expect(result == .rejected(error: "invalidArgument"))
        #expect(engine.durable == before)
        #expect(T.rejected(context.actions).allSatisfy { $0.error == "invalidArgument" && $0.limit == nil })
        #expect(!T.rejected(context.actions).isEmpty)
        #expect(T.notifications(context.actions).isEmpty, "a programming error, not a quota violation")
        var fine = T.context(at: 2)
        #expect(engine.set([(key: String(repeating: "k", count: 64), value: .integer(1))], write: T.write(0, 2), &fine) == .accepted)
    }

    @Test func setManyAppliesEveryKeyWithOneWriteOrNone() {
        var engine = T.launchedEngine(limits: KVSLimits(keys: 2))
        var context = T.context(at: 1)
        #expect(engine.set([(key: "a", value: .integer(1)), (key: "b", value: .integer(2))], write: T.write(0, 1), &context) == .accepted)
        #expect(Set(T.visible(context.actions).map(\.write)) == [T.write(0, 1)])
        #expect(T.visible(context.actions).map(\.key) == ["a", "b"])
        var tooMany = T.context(at: 2)
        #expect(engine.set([(key: "a", value: .integer(10)), (key: "c", value: .integer(3))], write: T.write(0, 2), &tooMany) == .rejected(error: "quotaViolation"))
        #expect(T.view(engine) == ["a": .integer(1), "b": .integer(2)], "a kept its value although alone it would fit")
        var remove = T.context(at: 3)
        #expect(engine.set([(key: "b", value: nil)], write: T.write(0, 3), &remove) == .accepted)
        #expect(T.visible(remove.actions) == [T.Visible(key: "b", value: .absent, write: T.write(0, 3), cause: .local)])
    }

    @Test func incrementReadsTheLocalIntegerAndTreatsAbsentAsZero() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        #expect(engine.increment(key: "n", by: 3, write: T.write(0, 1), &context) == .accepted)
        #expect(engine.increment(key: "n", by: 4, write: T.write(0, 2), &context) == .accepted)
        #expect(T.view(engine) == ["n": .integer(7)])
        #expect(engine.pendingWrites().map(\.0) == [T.write(0, 1), T.write(0, 2)])
    }

    // MARK: Quota broken only in the cloud

    @Test func aCallTheCloudRejectsIsRolledBackToTheCloudsValuesAndReported() {
        var engine = T.launchedEngine(changes: [change("a", .integer(1), T.write(1, 1), at: 1)], cursor: 1)
        var write = T.context(at: 10)
        _ = engine.set([(key: "a", value: .integer(2)), (key: "new", value: .integer(3))], write: T.write(0, 1), &write)
        var fire = T.context(at: 15)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        var answer = T.context(at: 16)
        let rejection = KVSRejection(write: T.write(0, 1), limit: "kvs.keys", current: [change("a", .integer(1), T.write(1, 1), at: 1)])
        engine.handle(.response(T.ok(T.uploads(fire.actions)[0].0, .uploaded(accepted: [], rejected: [rejection], superseded: []))), &answer)
        #expect(T.visible(answer.actions) == [
            T.Visible(key: "a", value: .kvs(.integer(1)), write: T.write(1, 1), cause: .rollback),
            T.Visible(key: "new", value: .absent, write: nil, cause: .rollback),
        ])
        #expect(T.rejected(answer.actions) == [T.Rejected(write: T.write(0, 1), key: "a", error: "quotaViolation", limit: "kvs.keys"),
                                               T.Rejected(write: T.write(0, 1), key: "new", error: "quotaViolation", limit: "kvs.keys")])
        #expect(T.notifications(answer.actions) == [AppNotification(store: .kvs, reason: "quotaViolationChange", items: ["a", "new"])])
        #expect(T.view(engine) == ["a": .integer(1)])
        #expect(engine.pendingWrites().isEmpty)
    }

    @Test func aCallThatLostSomeKeysToNewerWritesIsRolledBackAndTheAppToldServerChange() {
        var engine = T.launchedEngine(changes: [change("a", .integer(1), T.write(1, 1), at: 30)], cursor: 1)
        var write = T.context(at: 10)
        _ = engine.set([(key: "a", value: .integer(2)), (key: "new", value: .integer(3))], write: T.write(0, 1), &write)
        var fire = T.context(at: 15)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        var answer = T.context(at: 16)
        let rejection = KVSRejection(write: T.write(0, 1), cause: .olderThanCloud(key: "a"),
                                     current: [change("a", .integer(1), T.write(1, 1), at: 30)])
        engine.handle(.response(T.ok(T.uploads(fire.actions)[0].0, .uploaded(accepted: [], rejected: [rejection], superseded: []))), &answer)
        #expect(T.visible(answer.actions) == [
            T.Visible(key: "new", value: .absent, write: nil, cause: .fetch),
            T.Visible(key: "a", value: .kvs(.integer(1)), write: T.write(1, 1), cause: .fetch),
        ])
        #expect(T.rejected(answer.actions).isEmpty, "not a quota violation: the cloud reported why the call lost")
        #expect(T.notifications(answer.actions) == [AppNotification(store: .kvs, reason: "serverChange", items: ["a", "new"])])
        #expect(T.view(engine) == ["a": .integer(1)])
        #expect(engine.pendingWrites().isEmpty)
    }

    // MARK: Accounts

    @Test func signingIntoAnotherAccountDiscardsPendingWritesClearsTheStoreAndResyncs() {
        var engine = T.launchedEngine(changes: [change("a", .integer(1), T.write(1, 1), at: 1)], cursor: 1)
        var write = T.context(at: 10)
        _ = engine.set([(key: "b", value: .integer(2))], write: T.write(0, 1), &write)
        var signOut = T.context(at: 11)
        engine.handle(.signedOut, &signOut)
        var signIn = T.context(at: 12)
        engine.handle(.signedIn(T.other), &signIn)
        #expect(T.discarded(signIn.actions).map { "\($0.1) \($0.2)" } == ["b discarded at account switch"])
        #expect(T.visible(signIn.actions) == [T.Visible(key: "a", value: .absent, write: nil, cause: .reset),
                                             T.Visible(key: "b", value: .absent, write: nil, cause: .reset)])
        #expect(T.notifications(signIn.actions) == [AppNotification(store: .kvs, reason: "accountChange", items: ["a", "b"])])
        #expect(T.view(engine).isEmpty && engine.pendingWrites().isEmpty)
        let resync = T.fetches(signIn.actions)
        #expect(resync.count == 1 && resync.first?.1 == nil, "the new account's store is fetched whole")
        var answer = T.context(at: 13)
        engine.handle(.response(T.ok(resync[0].0, .changes([change("x", .integer(7), T.write(2, 1), at: 5)], cursor: 1))), &answer)
        #expect(T.notifications(answer.actions) == [AppNotification(store: .kvs, reason: "initialSyncChange", items: ["x"])])
        #expect(engine.localView().map(\.item) == [T.item("x", T.other)], "items carry the new account")
    }

    @Test func writesMadeWhileSignedOutUploadAfterSigningBackIntoTheSameAccount() {
        var engine = T.launchedEngine()
        var signOut = T.context(at: 1)
        engine.handle(.signedOut, &signOut)
        var write = T.context(at: 2)
        #expect(engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &write) == .accepted)
        #expect(T.sends(write.actions).isEmpty && T.timers(write.actions).isEmpty)
        #expect(engine.isQuiescent, "nothing can be sent while signed out")
        let saved = engine.durable
        var crashed = KVSEngine(identity: T.identity(), account: nil, recovering: saved)
        var launch = T.context(at: 3)
        crashed.handle(.launched, &launch)
        #expect(T.sends(launch.actions).isEmpty)
        var signIn = T.context(at: 4)
        crashed.handle(.signedIn(T.main), &signIn)
        #expect(T.notifications(signIn.actions).isEmpty && T.discarded(signIn.actions).isEmpty)
        #expect(T.uploads(signIn.actions).first?.1.map(\.write) == [T.write(0, 1)])
    }

    /// An engine signed into `main` whose upload of `a` (write 0:1) is on the wire, with `b`
    /// (write 0:2) written after it was sent, then signed into `other`.
    private func switchedWithAnUploadOnTheWire() -> (engine: KVSEngine, upload: UInt64, signIn: [EngineAction]) {
        var engine = T.launchedEngine()
        var write = T.context(at: 1)
        _ = engine.set([(key: "a", value: .integer(1))], write: T.write(0, 1), &write)
        var fire = T.context(at: 6)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        var later = T.context(at: 7)
        _ = engine.set([(key: "b", value: .integer(2))], write: T.write(0, 2), &later)
        var signIn = T.context(at: 8)
        engine.handle(.signedIn(T.other), &signIn)
        return (engine, T.uploads(fire.actions)[0].0, signIn.actions)
    }

    @Test func anUploadOnTheWireAtAnAccountSwitchIsDecidedByTheOldAccountsAnswer() {
        var (engine, upload, signIn) = switchedWithAnUploadOnTheWire()
        #expect(T.discarded(signIn).map { "\($0.0) \($0.1)" } == ["\(T.write(0, 2)) b"], "only the call not yet sent is discarded now")
        var answer = T.context(at: 9)
        engine.handle(.response(T.ok(upload, .uploaded(accepted: [T.write(0, 1)], rejected: [], superseded: []))), &answer)
        #expect(T.discarded(answer.actions).isEmpty, "the old account's cloud saved it")
        #expect(engine.durable.uploadAtSwitch.isEmpty)
        #expect(T.view(engine).isEmpty, "nothing of the old account shows")
    }

    @Test func anUploadOnTheWireAtAnAccountSwitchThatFailsOrIsRejectedIsReported() {
        var (failing, upload, _) = switchedWithAnUploadOnTheWire()
        var failure = T.context(at: 9)
        failing.handle(.response(T.failed(upload, .networkFailure)), &failure)
        #expect(T.discarded(failure.actions).map { "\($0.1) \($0.2)" } == ["a discarded at account switch (its upload failed)"])
        #expect(failure.actions.contains { action in
            if case .observe(.discarded(_, let item, _)) = action { return item.account == T.main }
            return false
        }, "reported on the old account's item")

        var (rejecting, rejectedUpload, _) = switchedWithAnUploadOnTheWire()
        var refusal = T.context(at: 9)
        let rejection = KVSRejection(write: T.write(0, 1), limit: "kvs.keys", current: [])
        rejecting.handle(.response(T.ok(rejectedUpload, .uploaded(accepted: [], rejected: [rejection], superseded: []))), &refusal)
        #expect(T.rejected(refusal.actions) == [T.Rejected(write: T.write(0, 1), key: "a", error: "quotaViolation", limit: "kvs.keys")])
        #expect(T.discarded(refusal.actions).isEmpty)
    }

    @Test func aCrashBeforeTheOldAccountAnswersStillReportsTheUpload() {
        let (engine, _, _) = switchedWithAnUploadOnTheWire()
        #expect(engine.durable.uploadAtSwitch.map(\.write) == [T.write(0, 1)])
        var restarted = KVSEngine(identity: T.identity(), account: T.other, recovering: engine.durable)
        var launch = T.context(at: 20)
        restarted.handle(.launched, &launch)
        #expect(T.discarded(launch.actions).map { "\($0.1) \($0.2)" } == ["a discarded at account switch (its upload's answer was lost in a crash)"])
        #expect(restarted.durable.uploadAtSwitch.isEmpty)
    }

    @Test func anAnswerForTheOldAccountIsDroppedAfterASwitch() {
        var engine = T.launchedEngine()
        var sync = T.context(at: 1)
        engine.synchronize(&sync)
        let oldFetch = T.fetches(sync.actions)[0].0
        var signIn = T.context(at: 2)
        engine.handle(.signedIn(T.other), &signIn)
        #expect(T.fetches(signIn.actions).isEmpty, "one request at a time")
        var stale = T.context(at: 3)
        engine.handle(.response(T.ok(oldFetch, .changes([change("old", .integer(1), T.write(1, 1), at: 1)], cursor: 1))), &stale)
        #expect(T.visible(stale.actions).isEmpty && T.view(engine).isEmpty)
        #expect(T.fetches(stale.actions).first?.1 == nil, "then the new account is fetched")
    }

    @Test func aPushDuringAFetchCausesOneMoreFetch() {
        var engine = T.launchedEngine()
        var sync = T.context(at: 1)
        engine.synchronize(&sync)
        var push = T.context(at: 1)
        engine.handle(.push(PushNotification(store: .kvs, account: T.main)), &push)
        #expect(T.sends(push.actions).isEmpty)
        var answer = T.context(at: 2)
        engine.handle(.response(T.ok(T.fetches(sync.actions)[0].0, .changes([], cursor: 0))), &answer)
        #expect(T.fetches(answer.actions).count == 1)
        #expect(!engine.isQuiescent)
    }
}
