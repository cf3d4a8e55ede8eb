import Testing
import SyncLabScenario
@testable import SyncLabSimulation

/// `synclab bench --store records --duration 10s` never settled (issue 13): a save refused with
/// `serverRecordChanged` after a fetch had already brought the cloud's version while the save
/// was in doubt waited for a fetch that would never bring that version again, and re-sent the
/// same refused save forever.
@Suite("A save refused after a fetch brought the cloud's version resolves against that version")
struct RefusedInDoubtSaveTests {
    @Test("two devices saving one record settle and converge when a fetch answer overtakes the refusal")
    func refusedSaveResolvesAgainstVersionFetchedInDoubt() throws {
        // The bench workload at 2 devices, 1 key, seed 12: d1's zone fetch is answered before its
        // save of r0 arrives, and the answer (holding d0's r0) reaches d1 while that save is in
        // doubt; the save's refusal comes next. d1 used to loop until the settle limit.
        let text = """
        {"format": "synclab/1", "name": "refused-in-doubt", "seed": 12, "duration": "3s",
         "devices": [{"id": "d0"}, {"id": "d1"}],
         "steps": [{"at": "0s", "device": "d0", "op": "zone.create", "zone": "Bench"},
                   {"at": "0s", "device": "d1", "op": "zone.create", "zone": "Bench"},
                   {"at": "402691us", "device": "d0", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 1}},
                   {"at": "788904us", "device": "d0", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 2}},
                   {"at": "917619us", "device": "d1", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 1}},
                   {"at": "1100382us", "device": "d0", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 3}},
                   {"at": "2446685us", "device": "d1", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 2}},
                   {"at": "2632065us", "device": "d1", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 3}},
                   {"at": "2742415us", "device": "d0", "op": "record.save", "zone": "Bench", "type": "Item", "name": "r0", "fields": {"value": 4}}],
         "expect": {"settled": true, "converged": true}}
        """
        for judged in try Harness.runs(text) {
            #expect(judged.outcome.settled)
            // Settled soon after the last write, not at the settle limit (one simulated hour).
            #expect(judged.outcome.endTime.microseconds < 60_000_000)
            let failed = judged.expectations.filter { !$0.passed }.map { "\($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }
            #expect(failed.isEmpty, "\(failed)")
        }
    }
}
