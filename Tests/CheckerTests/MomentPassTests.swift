import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// The passes the scan feeds as it goes, each looked at alone.
@Suite("Checker passes: moments")
struct MomentPassTests {
    @Test("notifications: within one batch, changed keys must be exactly the listed keys")
    func notificationPassComparesPerBatch() {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let a = builder.write(0, at: 0, [(x, .kvs(.integer(1))), (y, .kvs(.integer(2)))], op: "kvs.setMany")
        builder.fetch(1, at: 6, [(x, .kvs(.integer(1)), a)], notify: ["x", "z"])   // one batch: z spurious
        builder.fetch(1, at: 7, [(y, .kvs(.integer(2)), a)], notify: ["y"])        // the next batch: fine
        builder.fetch(1, at: 8, [(y, .kvs(.integer(2)), a)], notify: ["y"])        // unchanged: y spurious
        let (context, moments) = PassHarness.scan(builder)
        let pass = moments.notifications
        #expect(pass.anomalies.map(\.kind) == [.spuriousNotification, .spuriousNotification])
        #expect(pass.anomalies.map(\.item) == ["z", "y"])
        #expect(pass.anomalies.map(\.at.microseconds) == [6_000_000, 8_000_000])
        #expect(pass.total == 3)
        #expect(pass.notificationCounts(context) == [NotificationCount(device: "B", reason: "serverChange", count: 3)])
    }

    @Test("notifications: compared by name ids first, by names when the ids differ (two spellings of one key are one key)")
    func notificationPassFallsBackToNamesWhenIdsDiffer() {
        var builder = HistoryBuilder()
        let composed = builder.key("caf\u{E9}"), x = builder.key("x"), never = builder.key("never listed")
        let a = builder.write(0, at: 0, [(composed, .kvs(.integer(1))), (x, .kvs(.integer(2))), (never, .kvs(.integer(3)))], op: "kvs.setMany")
        builder.fetch(1, at: 6, [(composed, .kvs(.integer(1)), a)], notify: ["cafe\u{301}"])   // the other spelling: fine
        builder.fetch(1, at: 7, [(x, .kvs(.integer(2)), a)], notify: ["x"])                   // the same id: fine
        builder.fetch(1, at: 8, [(never, .kvs(.integer(3)), a)], notify: ["x"])               // never listed: missed, and x spurious
        let pass = PassHarness.scan(builder).moments.notifications
        #expect(pass.anomalies.map(\.kind) == [.missedNotification, .spuriousNotification])
        #expect(pass.anomalies.map(\.item) == ["never listed", "x"])
        #expect(pass.total == 3)
    }

    @Test("atomicity: a later write that saw the atomic one may leave an item as it was", arguments: [false, true])
    func atomicityPassForgivesLaterWritesThatSawIt(laterWrite: Bool) {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let first = builder.write(0, at: 0, [(x, .kvs(.integer(0)))])                       // t=0s
        builder.fetch(1, at: 1, [(x, .kvs(.integer(0)), first)])                              // t=1s
        let pair = builder.write(0, at: 2, [(x, .kvs(.integer(1))), (y, .kvs(.integer(1)))], op: "kvs.setMany")
        // A sets x back to 0 having seen the pair: B showing 0 for x next to the pair's y is then no tear.
        if laterWrite { builder.write(0, at: 3, [(x, .kvs(.integer(0)))]) }
        builder.fetch(1, at: 4, [(y, .kvs(.integer(1)), pair)])                              // t=4s: B shows half
        let anomalies = PassHarness.scan(builder).moments.atomicity.anomalies
        #expect(anomalies.count == (laterWrite ? 0 : 1))
        #expect(anomalies.allSatisfy { $0.device == "B" && $0.item == "x" && $0.write == "A:2" })
    }

    @Test("isolation: a write made in one account shown as another's data")
    func isolationPassNamesTheWritersAccount() {
        var builder = HistoryBuilder(accounts: ["alice", "bob"])
        let key = builder.key("k")   // alice's
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        builder.history.operations[0].account = AccountID(1)   // made while signed into bob
        builder.fetch(1, at: 1, [(key, .kvs(.integer(1)), a)])
        let pass = PassHarness.scan(builder).moments.isolation
        #expect(pass.anomalies.count == 2)
        #expect(pass.anomalies.allSatisfy { $0.explanation.contains("a write made in account bob, as data of account alice") })
    }

    @Test("quota: one anomaly per write and limit, listing every item the write had")
    func quotaPassGroupsItemsOfOneWrite() {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let a = builder.write(0, at: 0, [(x, .kvs(.integer(1))), (y, .kvs(.integer(2)))], op: "kvs.setMany")
        builder.device(0, at: 1, .rejected(write: a, item: x, error: "quotaViolation", limit: "kvs.totalBytes"))
        builder.device(0, at: 1, .rejected(write: a, item: y, error: "quotaViolation", limit: "kvs.totalBytes"))
        builder.device(0, at: 1, .rejected(write: a, item: y, error: "invalidArgument", limit: nil))
        let pass = PassHarness.scan(builder).moments.quota
        #expect(pass.anomalies.count == 1)
        #expect(pass.anomalies.first?.items == ["x", "y"])
        #expect(pass.anomalies.first?.explanation == "A's write A:1 (kvs.setMany) was refused with quotaViolation: it would break the kvs.totalBytes limit.")
    }
}
