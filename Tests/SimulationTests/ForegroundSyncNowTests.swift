import Testing
import SyncLabScenario
@testable import SyncLabSimulation
import SyncLabRunner

/// `app.foreground` and `kvs.synchronize` are the app asking to sync now: an engine waiting out
/// its backoff (up to 5 min) after a lossy link fetches at once, in every engine; a `retryAfter`
/// the cloud gave still holds (SPEC §4: never earlier). ARCHITECTURE.md, "Where SPEC.md is silent".
@Suite("app.foreground and kvs.synchronize sync now, not after the backoff")
struct ForegroundSyncNowTests {
    /// B loses every message from 0.5 s (its backoff climbs towards 5 min), recovers at 300 s,
    /// A writes at 300 s, B comes to the foreground at 310 s and shows A's value by 312 s.
    static func lossyThenForeground(write: String, op: String = "app.foreground", assert: String, setUp: String = "") -> String {
        """
        {"format": "synclab/1", "name": "sync now after loss",
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [\(setUp){"at": "500ms", "device": "B", "op": "network.set", "loss": 1},
                   {"at": "1s", "device": "B", \(write.replacingOccurrences(of: "NAME", with: "b"))},
                   {"at": "300s", "device": "B", "op": "network.set", "loss": 0},
                   {"at": "300s", "device": "A", \(write.replacingOccurrences(of: "NAME", with: "a"))},
                   {"at": "310s", "device": "B", "op": "\(op)"},
                   {"at": "312s", "device": "B", "op": "assert", \(assert)}],
         "expect": {"converged": true}}
        """
    }

    static let kvsWrite = #""op": "kvs.set", "key": "NAME", "value": "fromNAME""#
    static let kvsAssert = #""kvs": {"a": "froma"}"#
    static let recordWrite = #""op": "record.save", "zone": "Todos", "type": "Note", "name": "NAME", "fields": {"title": "fromNAME"}"#
    static let recordSetUp = #"{"at": "0s", "device": "A", "op": "zone.create", "zone": "Todos"}, "#
    static let recordAssert = #""records": {"Todos/a": {"title": "froma"}}"#

    static func run(_ text: String, hostRecordsPolicies: Bool = false) throws -> ScenarioRunner.Judged {
        guard case .success(let scenario) = ScenarioLoader.parse(text: text, path: "test.json"), let first = scenario.runs.first else {
            throw HarnessError(message: "scenario did not parse")
        }
        var options = SimulationOptions()
        options.hostRecordsPolicies = hostRecordsPolicies
        return ScenarioRunner.run(first, options: options)
    }

    static func failures(_ judged: ScenarioRunner.Judged) -> String { "\(judged.expectations.filter { !$0.passed })" }

    @Test("KVS: app.foreground after a lossy spell fetches at once")
    func kvsForeground() throws {
        let judged = try Self.run(Self.lossyThenForeground(write: Self.kvsWrite, assert: Self.kvsAssert))
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }

    @Test("KVS: kvs.synchronize after a lossy spell fetches at once")
    func kvsSynchronize() throws {
        let judged = try Self.run(Self.lossyThenForeground(write: Self.kvsWrite, op: "kvs.synchronize", assert: Self.kvsAssert))
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }

    @Test("documents: app.foreground after a lossy spell fetches at once")
    func documentsForeground() throws {
        let write = #""op": "doc.save", "path": "NAME.txt", "content": "fromNAME\n""#
        let judged = try Self.run(Self.lossyThenForeground(write: write, assert: #""documents": {"a.txt": "froma\n"}"#))
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }

    @Test("records: app.foreground after a lossy spell fetches at once")
    func recordsForeground() throws {
        let judged = try Self.run(Self.lossyThenForeground(write: Self.recordWrite, assert: Self.recordAssert, setUp: Self.recordSetUp))
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }

    @Test("hosted records (--host-records-policies): app.foreground after a lossy spell fetches at once")
    func hostedRecordsForeground() throws {
        let judged = try Self.run(Self.lossyThenForeground(write: Self.recordWrite, assert: Self.recordAssert, setUp: Self.recordSetUp),
                                  hostRecordsPolicies: true)
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }

    /// B misses A's push, is throttled at 21 s with `retryAfter` 60 s; its foreground at 40 s must
    /// not fetch (A's value stays unseen at 45 s), the retry at 81 s does.
    @Test("a retryAfter the cloud gave still holds: app.foreground waits it out")
    func retryAfterHolds() throws {
        let judged = try Self.run("""
        {"format": "synclab/1", "name": "foreground during retryAfter",
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "500ms", "device": "B", "op": "network.set", "pushLoss": 1},
                   {"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": "fromA"},
                   {"at": "20s", "op": "cloud.throttle", "for": "5s", "retryAfter": "60s"},
                   {"at": "21s", "device": "B", "op": "kvs.synchronize"},
                   {"at": "40s", "device": "B", "op": "app.foreground"},
                   {"at": "45s", "device": "B", "op": "assert", "kvs": {"k": null}},
                   {"at": "90s", "device": "B", "op": "assert", "kvs": {"k": "fromA"}}],
         "expect": {"converged": true}}
        """)
        let passed = judged.passed
        #expect(passed, "\(Self.failures(judged))")
    }
}
