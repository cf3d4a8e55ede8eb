import Testing
import SyncLabScenario
import SyncLabResult
@testable import SyncLabSimulation
import SyncLabRunner

/// `records.saveAtomic` calls stay whole when a later atomic call touches one of their records
/// (SPEC §4.3 "all or nothing", §6 atomicityViolation). Each expectation failed before its fix.
@Suite("Atomic record calls that share a record")
struct AtomicGroupTests {
    private func run(_ text: String) throws -> ScenarioRunner.Judged {
        let judged = try Harness.run(text)
        let failed = judged.expectations.filter { !$0.passed }.map { "\($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }
        #expect(failed.isEmpty, "\(failed) \(judged.outcome.report.anomalies.map(\.explanation))")
        return judged
    }

    @Test("two offline atomic calls sharing a record go out as one atomic request", arguments: [2, 3, 6])
    func sharedRecordJoinsGroups(seed: Int) throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": \(seed),
         "network": {"latency": {"dist": "uniform", "min": "10ms", "max": "400ms"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "0s", "device": "A", "op": "zone.create", "zone": "Z1"},
                   {"at": "10s", "device": "A", "op": "airplane.on"},
                   {"at": "20s", "device": "A", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r1", "fields": {"f": 8}}, {"type": "T", "name": "r3", "fields": {"f": 13}}]},
                   {"at": "21s", "device": "A", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r1", "fields": {"f": 10}}, {"type": "T", "name": "r4", "fields": {"f": 11}}]},
                   {"at": "30s", "device": "A", "op": "airplane.off"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"],
                    "final": {"records": {"Z1/r1": {"f": 10}, "Z1/r3": {"f": 13}, "Z1/r4": {"f": 11}}}}}
        """)
        #expect(judged.outcome.report.anomalies.isEmpty, "\(judged.outcome.report.anomalies.map(\.explanation))")
    }

    @Test("serverWins drops both joined calls whole: no record of the earlier call reaches the cloud")
    func serverWinsDropsJoinedCalls() throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}],
         "engine": {"records": {"conflict": "serverWins"}},
         "steps": [{"at": "0s", "device": ["A", "B"], "op": "zone.create", "zone": "Z1"},
                   {"at": "1s", "device": "A", "op": "record.save", "zone": "Z1", "type": "T", "name": "r1", "fields": {"f": 0}},
                   {"at": "10s", "device": "A", "op": "airplane.on"},
                   {"at": "15s", "device": "B", "op": "record.save", "zone": "Z1", "type": "T", "name": "r1", "fields": {"f": 5}},
                   {"at": "20s", "device": "A", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r1", "fields": {"f": 8}}, {"type": "T", "name": "r3", "fields": {"f": 13}}]},
                   {"at": "21s", "device": "A", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r1", "fields": {"f": 10}}, {"type": "T", "name": "r4", "fields": {"f": 11}}]},
                   {"at": "30s", "device": "A", "op": "airplane.off"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"],
                    "final": {"records": {"Z1/r1": {"f": 5}, "Z1/r3": null, "Z1/r4": null}}}}
        """)
        #expect(judged.outcome.report.anomalies.allSatisfy { $0.kind != .atomicityViolation })
    }

    @Test("a serverRecordChanged answer never shows part of another device's atomic call", arguments: ["merge", "clientWins", "serverWins"])
    func conflictWaitsForWholeCall(policy: String) throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}],
         "engine": {"records": {"conflict": "\(policy)"}},
         "steps": [{"at": "0s", "device": ["A", "B"], "op": "zone.create", "zone": "Z"},
                   {"at": "10s", "device": "A", "op": "airplane.on"},
                   {"at": "20s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "r1", "fields": {"f_A": 1}},
                   {"at": "30s", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "r1", "fields": {"f_B": 2}}, {"type": "T", "name": "r2", "fields": {"f_B": 3}}]},
                   {"at": "60s", "device": "A", "op": "airplane.off"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"], "final": {"records": {"Z/r2": {"f_B": 3}}}}}
        """)
        #expect(judged.outcome.report.anomalies.allSatisfy { $0.kind != .atomicityViolation })
    }

    @Test("a save in doubt goes out again alone; the later call joined to its group follows whole (fuzz chaos 1013)")
    func inDoubtBeforeJoinedCall() throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 1013, "duration": "11m", "engine": {"documents": {}, "records": {}, "kvs": {}}, "devices": [{"id": "C", "network": {"loss": 0.2, "reorder": true}}, {"id": "D"}], "steps": [{"at": "11s", "device": "C", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r3", "fields": {"f_C": 1, "title": 2}}, {"type": "T", "name": "r4", "fields": {"n": 4}}], "delete": ["r2"]}, {"at": "33s", "device": "C", "op": "records.saveAtomic", "zone": "Z1", "records": [{"type": "T", "name": "r1", "fields": {"f_C": 5}}, {"type": "T", "name": "r4", "fields": {"body": 6}}]}, {"at": "303s", "device": "D", "op": "account.signIn", "account": "bob"}], "accounts": ["alice", "bob"], "expect": {"noAnomalies": ["atomicityViolation"]}}
        """)
        #expect(judged.outcome.report.anomalies.allSatisfy { $0.kind != .atomicityViolation })
    }
}
