import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

@Suite("Checker")
struct CheckerTests {
    @Test("a write overwritten by one that never saw it is a lost update naming both writes")
    func lostUpdate() {
        var builder = HistoryBuilder()
        let theme = builder.key("theme")
        let a = builder.write(0, at: 10, [(theme, .kvs(.string("dark")))])
        let b = builder.write(1, at: 20, [(theme, .kvs(.string("light")))])
        builder.cloud(at: 21, .lastWriterWins(item: theme, chosen: b, over: a, rule: "device timestamp"))
        builder.fetch(0, at: 22, [(theme, .kvs(.string("light")), b)], notify: ["theme"])
        builder.final([ViewEntry(item: theme, value: .kvs(.string("light")), write: b)])
        let report = builder.check()
        #expect(report.lostUpdates == 1)
        let lost = report.anomalies.first { $0.kind == .lostUpdate }
        #expect(lost?.write == "A:1")
        #expect(lost?.replacedBy == "B:1")
        #expect(lost?.device == "A")
        #expect(report.count(of: .causalityViolation) == 0)
    }

    @Test("a write that saw the earlier value is built on it: nothing is lost")
    func observedIsNotLost() {
        var builder = HistoryBuilder()
        let theme = builder.key("theme")
        let a = builder.write(0, at: 10, [(theme, .kvs(.string("dark")))])
        builder.fetch(1, at: 11, [(theme, .kvs(.string("dark")), a)], notify: ["theme"])
        let b = builder.write(1, at: 20, [(theme, .kvs(.string("light")))])
        builder.final([ViewEntry(item: theme, value: .kvs(.string("light")), write: b)])
        let report = builder.check()
        #expect(report.lostUpdates == 0)
        #expect(report.anomalies.isEmpty)
    }

    @Test("last-writer-wins choosing a write the loser had seen is a causality violation and a lost update")
    func causalityViolation() {
        var builder = HistoryBuilder()
        let theme = builder.key("theme")
        let a = builder.write(0, at: 10, [(theme, .kvs(.string("dark")))])
        builder.fetch(1, at: 11, [(theme, .kvs(.string("dark")), a)], notify: ["theme"])
        let b = builder.write(1, at: 20, [(theme, .kvs(.string("light")))])
        builder.cloud(at: 21, .lastWriterWins(item: theme, chosen: a, over: b, rule: "device timestamp"))
        builder.fetch(1, at: 22, [(theme, .kvs(.string("dark")), a)], notify: ["theme"])
        builder.final([ViewEntry(item: theme, value: .kvs(.string("dark")), write: a)])
        let report = builder.check()
        #expect(report.count(of: .causalityViolation) == 1)
        #expect(report.lostUpdates == 1)
        let lost = report.anomalies.first { $0.kind == .lostUpdate }
        #expect(lost?.explanation.contains("clock skew") == true)
    }

    @Test("a conflict version that survives unresolved is not lost")
    func survivingVersionIsNotLost() {
        var builder = HistoryBuilder()
        let note = builder.key("note.txt", store: .documents)
        let a = builder.write(0, at: 10, [(note, .document(.text("A")))], op: "doc.save")
        let b = builder.write(1, at: 20, [(note, .document(.text("B")))], op: "doc.save")
        builder.history.survivingWrites[0] = [a]
        builder.final([ViewEntry(item: note, value: .document(.text("B")), write: b)])
        #expect(builder.check().lostUpdates == 0)
        #expect(builder.check().unresolvedConflicts == 1)
    }

    @Test("a merge that lists both versions as parents keeps both")
    func mergeParentsSurvive() {
        var builder = HistoryBuilder()
        let note = builder.key("note.txt", store: .documents)
        let a = builder.write(0, at: 10, [(note, .document(.text("A")))], op: "doc.save")
        let b = builder.write(1, at: 20, [(note, .document(.text("B")))], op: "doc.save")
        let merged = WriteID(device: DeviceID(0), sequence: 1, derived: true)
        builder.device(0, at: 30, .derivedWrite(write: merged, item: note, value: .document(.text("AB")), parents: [a, b], why: "merge"))
        builder.final([ViewEntry(item: note, value: .document(.text("AB")), write: merged)])
        #expect(builder.check().lostUpdates == 0)
    }

    @Test("a change discarded at sign-out is a lost update with the reason")
    func discardedIsLost() {
        var builder = HistoryBuilder()
        let draft = builder.key("draft")
        let a = builder.write(0, at: 10, [(draft, .kvs(.string("x")))])
        builder.device(0, at: 11, .discarded(write: a, item: draft, reason: "discarded at account switch"))
        builder.final([])
        let report = builder.check()
        #expect(report.lostUpdates == 1)
        #expect(report.anomalies.first?.explanation.contains("discarded at account switch") == true)
    }

    @Test("a rejection the app was told of is a quota violation, not a lost update")
    func rejectionIsQuotaViolation() {
        var builder = HistoryBuilder()
        let big = builder.key("big")
        let a = builder.write(0, at: 10, [(big, .kvs(.string("x")))])
        builder.device(0, at: 12, .rejected(write: a, item: big, error: "quotaViolation", limit: "kvs.totalBytes"))
        builder.final([])
        let report = builder.check()
        #expect(report.lostUpdates == 0)
        #expect(report.quotaViolations == 1)
        #expect(report.anomalies.first?.limit == "kvs.totalBytes")
    }

    @Test("a delete that loses to a concurrent edit is not a lost update, and the edit is no resurrection")
    func deleteLosesToEdit() {
        var builder = HistoryBuilder()
        let list = builder.key("list.txt", store: .documents)
        let a = builder.write(0, at: 0, [(list, .document(.text("milk\n")))], op: "doc.save")
        builder.fetch(1, at: 1, [(list, .document(.text("milk\n")), a)])
        let edit = builder.write(1, at: 15, [(list, .document(.text("milk\neggs\n")))], op: "doc.append")
        _ = builder.write(0, at: 20, [(list, .absent)], op: "doc.delete")
        builder.final([ViewEntry(item: list, value: .document(.text("milk\neggs\n")), write: edit)])
        let report = builder.check()
        #expect(report.lostUpdates == 0)
        #expect(report.count(of: .resurrection) == 0)
    }

    @Test("a value a delete had seen coming back is a resurrection")
    func resurrection() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        builder.fetch(1, at: 1, [(key, .kvs(.integer(1)), a)], notify: ["k"])
        let removal = builder.write(1, at: 5, [(key, .absent)], op: "kvs.remove")
        // The removal reached the cloud and lost to the value it had seen (a skewed clock): the
        // value is back. (Never applied, still pending at the end, it would have removed nothing.)
        builder.cloud(at: 6, .lastWriterWins(item: key, chosen: a, over: removal, rule: "device change timestamp"))
        builder.final([ViewEntry(item: key, value: .kvs(.integer(1)), write: a)])
        #expect(builder.check().count(of: .resurrection) == 1)
    }

    @Test("a device whose view differs from the cloud's diverges")
    func divergence() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        let entry = ViewEntry(item: key, value: .kvs(.integer(1)), write: a)
        builder.final([entry], devices: [[entry], []])
        let report = builder.check()
        #expect(report.converged == false)
        let divergence = report.anomalies.first { $0.kind == .divergence }
        #expect(divergence?.device == "B")
    }

    @Test("a fetch that changes a key without listing it, or lists an unchanged key, is reported")
    func notifications() {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let a = builder.write(0, at: 0, [(x, .kvs(.integer(1))), (y, .kvs(.integer(2)))], op: "kvs.setMany")
        builder.fetch(1, at: 6, [(x, .kvs(.integer(1)), a)], notify: ["x", "z"], reason: "initialSyncChange")
        builder.fetch(1, at: 7, [(y, .kvs(.integer(2)), a)], notify: nil)
        builder.final([ViewEntry(item: x, value: .kvs(.integer(1)), write: a), ViewEntry(item: y, value: .kvs(.integer(2)), write: a)])
        let report = builder.check()
        #expect(report.anomalies.contains { $0.kind == .spuriousNotification && $0.item == "z" })
        #expect(report.anomalies.contains { $0.kind == .missedNotification && $0.item == "y" })
        #expect(report.notificationCounts == [NotificationCount(device: "B", reason: "initialSyncChange", count: 1)])
    }

    @Test("showing part of an atomic write next to a value it replaced is an atomicity violation")
    func atomicity() {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let first = builder.write(0, at: 0, [(x, .kvs(.integer(0))), (y, .kvs(.integer(0)))], op: "kvs.setMany")
        builder.fetch(1, at: 1, [(x, .kvs(.integer(0)), first), (y, .kvs(.integer(0)), first)], notify: ["x", "y"])
        let second = builder.write(0, at: 5, [(x, .kvs(.integer(1))), (y, .kvs(.integer(1)))], op: "kvs.setMany")
        builder.fetch(1, at: 6, [(x, .kvs(.integer(1)), second)], notify: ["x"])
        builder.fetch(1, at: 7, [(y, .kvs(.integer(1)), second)], notify: ["y"])
        builder.final([ViewEntry(item: x, value: .kvs(.integer(1)), write: second), ViewEntry(item: y, value: .kvs(.integer(1)), write: second)])
        let report = builder.check()
        #expect(report.count(of: .atomicityViolation) == 1)
        #expect(report.anomalies.first { $0.kind == .atomicityViolation }?.device == "B")
    }

    @Test("a device showing another account's item is an isolation violation")
    func isolation() {
        var builder = HistoryBuilder(accounts: ["alice", "bob"])
        let bobKey = ItemKey(account: AccountID(1), store: .kvs, name: "secret")
        builder.fetch(1, at: 3, [(bobKey, .kvs(.string("x")), nil)])
        builder.final([])
        #expect(builder.check().count(of: .isolationViolation) == 1)
    }
}
