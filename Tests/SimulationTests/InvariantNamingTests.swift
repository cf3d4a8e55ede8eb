import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabHistory
import SyncLabResult
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// SPEC §7: a run fails when the checker finds an `atomicityViolation` or `isolationViolation`
/// "that `expect.anomalies` does not name". Naming is matching: a pattern for one violation
/// (its device, store or item) does not excuse another the pattern does not match.
@Suite("Invariant anomalies fail a run unless expect.anomalies names each of them")
struct InvariantNamingTests {
    /// A run of a one-device scenario with `expect`, its report replaced by `anomalies`: the
    /// engines give no violation to name, so the evaluator is fed the ones a team's app can cause
    /// (an atomic action sent in plain batches, say) directly.
    static func evaluate(expect: String, anomalies: [Anomaly]) throws -> [ExpectationResult] {
        let text = #"{"format": "synclab/1", "name": "invariants", "devices": [{"id": "B"}, {"id": "C"}], "expect": \#(expect)}"#
        let scenario = try ScenarioLoader.parse(text: text, path: "invariants.json").get()
        var simulator = Simulator(run: scenario.runs[0], options: SimulationOptions())
        var outcome = simulator.execute()
        outcome.report = CheckReport(anomalies: anomalies, writes: 0, lostUpdates: 0, conflicts: 0, unresolvedConflicts: 0,
                                     quotaViolations: 0, converged: true, notifications: 0, notificationCounts: [])
        return ExpectationEvaluator.evaluate(outcome)
    }

    static func violation(_ kind: AnomalyKind, device: String, item: String) -> Anomaly {
        Anomaly(kind: kind, store: .records, account: "main", item: item, field: nil, device: device, at: SimInstant(microseconds: 1_000_000),
                explanation: "\(device) showed part of an atomic call.")
    }

    @Test("a pattern naming B's atomicityViolation leaves C's unnamed: the run fails on the invariant, counting C's alone")
    func patternForOneViolationDoesNotNameAnother() throws {
        let results = try Self.evaluate(expect: #"{"anomalies": [{"kind": "atomicityViolation", "device": "B"}]}"#,
                                        anomalies: [Self.violation(.atomicityViolation, device: "B", item: "L/list"),
                                                    Self.violation(.atomicityViolation, device: "C", item: "L/item")])
        let invariant = try #require(results.first { $0.name == "invariant atomicityViolation" })
        #expect(!invariant.passed)
        #expect(invariant.actual == .int(1))
        #expect(results.first { $0.name == "anomalies[0]" }?.passed == true)
    }

    @Test("patterns matching every violation (one by kind alone, or one each) name them all: no invariant failure")
    func everyViolationNamed() throws {
        let both = [Self.violation(.isolationViolation, device: "B", item: "k"), Self.violation(.isolationViolation, device: "C", item: "k")]
        for expect in [#"{"anomalies": [{"kind": "isolationViolation"}]}"#,
                       #"{"anomalies": [{"kind": "isolationViolation", "device": "B"}, {"kind": "isolationViolation", "device": "C"}]}"#] {
            let results = try Self.evaluate(expect: expect, anomalies: both)
            #expect(results.allSatisfy { $0.passed }, "\(expect)")
        }
    }

    @Test("an unnamed violation still fails a run that names nothing, counting every violation")
    func nothingNamed() throws {
        let results = try Self.evaluate(expect: #"{"converged": true}"#,
                                        anomalies: [Self.violation(.atomicityViolation, device: "B", item: "L/list"),
                                                    Self.violation(.atomicityViolation, device: "C", item: "L/item")])
        let invariant = try #require(results.first { $0.name == "invariant atomicityViolation" })
        #expect(!invariant.passed && invariant.actual == .int(2))
    }
}
