import Testing
import SyncLabScenario
@testable import SyncLabSimulation

/// Account switches judged end to end: the engine's reports and the checker together.
@Suite("Account switches, end to end")
struct AccountSwitchTests {
    /// A sets `theme`; the upload leaves between 6 s and 6.5 s and takes 2 s each way. A signs out
    /// and into `other` at `switchAt`.
    private func scenario(switchAt seconds: Double) -> String {
        """
        {"format": "synclab/1", "name": "switch", "accounts": ["main", "other"],
         "engine": {"kvs": {"uploadDelay": "5s"}}, "network": {"latency": "2s"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "kvs.set", "key": "theme", "value": "dark"},
           {"at": "\(seconds)s", "device": "A", "op": "account.signOut"},
           {"at": "\(seconds + 0.1)s", "device": "A", "op": "account.signIn", "account": "other"}
         ]}
        """
    }

    @Test("a write whose upload is on the wire when the account switches is saved by the old account, not reported lost")
    func uploadOnTheWireIsNotLost() throws {
        let judged = try Harness.run(scenario(switchAt: 7))
        #expect(judged.outcome.report.lostUpdates == 0, "\(judged.outcome.report.anomalies.map(\.explanation))")
        #expect(judged.outcome.report.anomalies.isEmpty)
        let discards = try Harness.events(judged).filter { $0.event == "discarded" }
        #expect(discards.isEmpty)
    }

    @Test("a write not yet sent when another account signs in is discarded and reported lost")
    func unsentWriteIsLost() throws {
        let judged = try Harness.run(scenario(switchAt: 3))
        #expect(judged.outcome.report.lostUpdates == 1)
        #expect(judged.outcome.report.anomalies.first?.explanation.contains("never reached the cloud: discarded at account switch") == true)
    }

    // A's 2 MB upload leaves at t=1s and takes about 1.7 s at 10 Mbps; A saves a second document
    // at t=1.5s (not sent: one request at a time) and signs into `other` at t=2s.
    @Test("a document upload on the wire at an account switch is decided by the old account's answer, not reported discarded")
    func documentUploadOnTheWireIsNotDiscarded() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "switch", "accounts": ["main", "other"], "network": {"bandwidth": "10Mbps"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "doc.save", "path": "big.bin", "content": {"$size": "2MB"}},
           {"at": "1.5s", "device": "A", "op": "doc.save", "path": "note.txt", "content": "queued\\n"},
           {"at": "1.9s", "device": "A", "op": "account.signOut"},
           {"at": "2s", "device": "A", "op": "account.signIn", "account": "other"}
         ],
         "expect": {"final": {"documents": {"big.bin": {"$size": "2MB"}, "note.txt": null}}}}
        """)
        let passed = judged.passed
        #expect(passed, "\(judged.expectations.filter { !$0.passed })")
        let discards = try Harness.events(judged).filter { $0.event == "discarded" }
        #expect(discards.map { $0.string("item") } == ["note.txt"])
        #expect(judged.outcome.report.anomalies.map(\.item) == ["note.txt"])
    }

    /// A saves r0 and it reaches the cloud; at 5 s `offline` goes into airplane mode, at 6 s A
    /// deletes r0, at 7 s A signs out, at 8 s the airplane mode ends.
    private func recordDelete(offline: String) -> String {
        """
        {"format": "synclab/1", "name": "delete", "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0ms", "device": "A", "op": "zone.create", "zone": "Z"},
           {"at": "100ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "A"}},
           {"at": "5s", "device": "\(offline)", "op": "airplane.on"},
           {"at": "6s", "device": "A", "op": "record.delete", "zone": "Z", "name": "r0"},
           {"at": "7s", "device": "A", "op": "account.signOut"},
           {"at": "8s", "device": "\(offline)", "op": "airplane.off"}
         ]}
        """
    }

    @Test("a record delete discarded at sign-out is a lost update naming the discard, like a discarded save")
    func discardedRecordDeleteIsLost() throws {
        let judged = try Harness.run(recordDelete(offline: "A"))
        #expect(try Harness.events(judged).filter { $0.event == "discarded" }.map { $0.string("item") } == ["Z/r0"])
        #expect(judged.outcome.report.lostUpdates == 1, "\(judged.outcome.report.anomalies.map(\.explanation))")
        #expect(judged.outcome.report.anomalies.map(\.explanation) == [#"A's write A:3 (record.delete "Z/r0") never reached the cloud: discarded at sign-out."#])
    }

    @Test("a record delete that reached the cloud before sign-out is not lost")
    func deliveredRecordDeleteIsNotLost() throws {
        let judged = try Harness.run(recordDelete(offline: "B"))
        #expect(try Harness.events(judged).filter { $0.event == "discarded" }.isEmpty)
        #expect(judged.outcome.report.lostUpdates == 0, "\(judged.outcome.report.anomalies.map(\.explanation))")
    }

    /// A (alice) signs out, deletes and reinstalls the app, writes a key and a document while
    /// still signed out, then bob signs in on A.
    private static let reinstalledSignedOut = """
        {"format": "synclab/1", "name": "reinstall", "accounts": ["alice", "bob"],
         "devices": [{"id": "A", "account": "alice"}, {"id": "B", "account": "bob"}],
         "steps": [
           {"at": "20s", "device": "A", "op": "account.signOut"},
           {"at": "21s", "device": "A", "op": "app.delete"},
           {"at": "22s", "device": "A", "op": "app.install"},
           {"at": "23s", "device": "A", "op": "kvs.set", "key": "k", "value": "signed out"},
           {"at": "23s", "device": "A", "op": "doc.save", "path": "k.txt", "content": "signed out"},
           {"at": "30s", "device": "A", "op": "account.signIn", "account": "bob"}
         ]}
        """

    @Test("an app installed while signed out writes for the account the device last signed into: another account's sign-in discards those writes")
    func reinstalledWhileSignedOutWritesForTheLastAccount() throws {
        let judged = try Harness.run(AccountSwitchTests.reinstalledSignedOut)
        let events = try Harness.events(judged)
        // Shown on A as alice's, never as the first account's by default nor bob's.
        let shown = events.filter { $0.event == "visible" && $0.string("device") == "A" && $0.string("cause") == "local" }
        #expect(shown.map { $0.string("account") } == ["alice", "alice"])
        #expect(events.filter { $0.event == "discarded" }.map { $0.string("item") } == ["k", "k.txt"])
        #expect(events.contains { $0.event == "notify" && $0.string("device") == "A" && $0.string("reason") == "accountChange" })
        #expect(judged.outcome.report.lostUpdates == 2)
        // bob's store and container never got them.
        #expect(!events.contains { $0.event == "visible" && $0.string("device") == "B" })
    }

    @Test("calls waiting for the answer to an upload sent before an account switch are reported discarded when the app is deleted")
    func appDeletionReportsCallsAwaitingTheSwitchAnswer() throws {
        // A's uploads are lost on the way (loss 1); A signs into `other` while they are on the
        // wire, then deletes the app before any answer (fuzz kvs seeds 38901, 97485).
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "accounts": ["main", "other"], "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "network.set", "loss": 1.0},
                   {"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": "A"},
                   {"at": "1s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "A"},
                   {"at": "10s", "device": "A", "op": "account.signIn", "account": "other"},
                   {"at": "11s", "device": "A", "op": "app.delete"}]}
        """)
        let discards = try Harness.events(judged).filter { $0.event == "discarded" }
        #expect(discards.map { $0.string("item") } == ["k", "n.txt"])
        #expect(discards.allSatisfy { $0.string("account") == "main" && $0.time == 11_000_000 })
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }
        #expect(lost.count == 2)
        #expect(lost.allSatisfy { $0.explanation.contains("never reached the cloud: discarded by app deletion") }, "\(lost.map(\.explanation))")
    }

    @Test("a KVS fetch answer that comes after sign-out is dropped: a signed-out device takes none of the account's news until it signs in again")
    func fetchAnswerAfterSignOutIsDropped() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "network": {"latency": "2s"},
         "devices": [{"id": "A", "network": {"pushLoss": 1.0}}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "B", "op": "kvs.set", "key": "k", "value": "from B"},
                   {"at": "20s", "device": "A", "op": "kvs.synchronize"},
                   {"at": "21s", "device": "A", "op": "account.signOut"},
                   {"at": "40s", "device": "A", "op": "account.signIn", "account": "main"}],
         "expect": {"final": {"kvs": {"k": "from B"}}}}
        """)
        let onA = try Harness.events(judged).filter { $0.string("device") == "A" && $0.string("store") == "kvs" }
        let signedOut = onA.filter { $0.time > 21_000_000 && $0.time < 40_000_000 }
        #expect(!signedOut.contains { $0.event == "visible" || $0.event == "notify" })
        // After signing in again, the fetch brings the key.
        #expect(onA.contains { $0.event == "visible" && $0.time > 40_000_000 && $0.string("item") == "k" })
        #expect(judged.passed)
    }

    @Test("a documents fetch answer that comes after sign-out is dropped, as the key-value store's")
    func documentsFetchAnswerAfterSignOutIsDropped() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "network": {"latency": "2s"},
         "devices": [{"id": "A", "network": {"pushLoss": 1.0}}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "B", "op": "doc.save", "path": "b.txt", "content": "from B"},
                   {"at": "20s", "device": "A", "op": "app.foreground"},
                   {"at": "21s", "device": "A", "op": "account.signOut"},
                   {"at": "40s", "device": "A", "op": "account.signIn", "account": "main"}],
         "expect": {"final": {"documents": {"b.txt": "from B"}}}}
        """)
        let onA = try Harness.events(judged).filter { $0.string("device") == "A" && $0.string("store") == "documents" && $0.event == "visible" }
        #expect(!onA.contains { $0.time > 21_000_000 && $0.time < 40_000_000 })
        #expect(onA.contains { $0.time > 40_000_000 && $0.string("item") == "b.txt" })
        #expect(judged.passed)
    }
}
