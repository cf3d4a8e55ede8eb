import Testing
import SyncLabScenario
@testable import SyncLabSimulation

/// Fuzzing cases (QA3 F5, F6, F2) where the records engine settled but never converged. Each
/// scenario expects convergence and failed before its fix.
@Suite("Records engines converge after stale fetches, late subscriptions and rollbacks")
struct RecordConvergenceTests {
    private func expectPasses(_ text: String) throws {
        for judged in try Harness.runs(text) {
            let failed = judged.expectations.filter { !$0.passed }.map { "\($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }
            #expect(failed.isEmpty, "\(judged.outcome.run.variant): \(failed) \(judged.outcome.report.anomalies.map(\.explanation))")
        }
    }

    @Test("a zone fetch answered before the device's save, and delivered after its answer, does not delete the saved record")
    func staleZoneFetchKeepsSavedRecord() throws {
        // Seed 2071: the cloud answers fetchZoneChanges (empty zone) before the save arrives; with
        // reorder the save's answer comes first. The device used to delete its own record.
        try expectPasses("""
        {"format": "synclab/1", "name": "F5", "seed": 2071, "duration": "11m",
         "devices": [{"id": "A", "online": false, "network": {"loss": 0.2, "reorder": true}}],
         "network": {"latency": {"dist": "normal", "mean": "100ms", "stddev": "50ms"}},
         "steps": [{"at": "0s", "device": "A", "op": "zone.create", "zone": "Z1"},
                   {"at": "125s", "device": "A", "op": "record.save", "zone": "Z1", "type": "T", "name": "r1", "fields": {"f_A": 7}}],
         "expect": {"settled": true, "converged": true, "final": {"records": {"Z1/r1": {"f_A": 7}}}}}
        """)
    }

    @Test("a device whose subscription succeeds after another device's change fetches that change without a push")
    func lateSubscriptionFetches() throws {
        // Seed 2254: B's subscription requests are lost until after its last fetch; C's save
        // then lands while B is not subscribed, so B gets no push for it.
        try expectPasses("""
        {"format": "synclab/1", "name": "F6", "seed": 2254, "duration": "11m",
         "devices": [{"id": "B"}, {"id": "C", "online": false}],
         "network": {"latency": {"dist": "normal", "mean": "100ms", "stddev": "50ms"}, "loss": 0.3},
         "steps": [{"at": "0s", "device": "B", "op": "zone.create", "zone": "Z1"},
                   {"at": "0s", "device": "B", "op": "zone.create", "zone": "Z2"},
                   {"at": "41s", "device": "C", "op": "record.save", "zone": "Z2", "type": "T", "name": "r1", "fields": {"f_C": 4}},
                   {"at": "54s", "device": "C", "op": "airplane.off"},
                   {"at": "119s", "device": "B", "op": "app.foreground"}],
         "expect": {"settled": true, "converged": true, "final": {"records": {"Z2/r1": {"f_C": 4}}}}}
        """)
    }

    @Test("a rejected creation rolls back to the server record fetched meanwhile, keeping its fields")
    func rollbackKeepsFetchedServerRecord() throws {
        // Seed 285: D's atomic call creating r4 is held back by throttle and outage; D fetches
        // B's r4; then the cloud rejects D's call (r1.body changed type). D used to drop r4.
        try expectPasses("""
        {"format": "synclab/1", "name": "F2", "seed": 285, "duration": "11m",
         "devices": [{"id": "A", "online": false}, {"id": "B"}, {"id": "C"}, {"id": "D"}],
         "steps": [{"at": "0s", "device": "A", "op": "zone.create", "zone": "Z1"},
                   {"at": "16s", "op": "cloud.throttle", "retryAfter": "15s", "for": "55s"},
                   {"at": "34s", "device": "D", "op": "records.saveAtomic", "zone": "Z1",
                    "records": [{"type": "T", "name": "r1", "fields": {"body": 1}}, {"type": "T", "name": "r4", "fields": {"title": "s2"}}],
                    "delete": ["r2"]},
                   {"at": "49s", "device": "A", "op": "record.save", "zone": "Z1", "type": "T", "name": "r3", "fields": {"body": 4.5}},
                   {"at": "68s", "device": "B", "op": "record.save", "zone": "Z1", "type": "T", "name": "r4", "fields": {"f_B": 6.0, "title": "s5"}},
                   {"at": "79s", "op": "cloud.outage", "for": "40s"},
                   {"at": "108s", "device": "D", "op": "records.saveAtomic", "zone": "Z1",
                    "records": [{"type": "T", "name": "r3", "fields": {"body": "s8"}}, {"type": "T", "name": "r1", "fields": {"f_D": 9}}]},
                   {"at": "119s", "device": "C", "op": "app.install"}],
         "expect": {"settled": true, "converged": true, "final": {"records": {"Z1/r4": {"f_B": 6.0, "title": "s5"}}}}}
        """)
    }
}
