import Testing
@testable import SyncLabSimulation

/// Issue 14, crashes 2–4 and the increment rule: values at the validator's limits run to the
/// end without trapping.
@Suite("Runs at the limits")
struct ExtremeRunTests {
    @Test("a step, settle, latency and outage of 100 years each: the heal runs and the run ends")
    func durationAtTheLimit() throws {
        let judged = try Harness.run(#"""
        {"format": "synclab/1", "name": "t", "duration": "876600h", "devices": [{"id": "A"}, {"id": "B"}],
         "network": {"latency": "876600h", "timeout": "876600h"},
         "steps": [{"at": "876600h", "device": "A", "op": "kvs.set", "key": "k", "value": 1},
                   {"at": "876600h", "op": "cloud.outage", "for": "876600h"}],
         "end": {"settle": "876600h"}}
        """#)
        #expect(judged.outcome.statistics.events > 0)
    }

    @Test("clock offsets and 20,000 jumps of 100 years, and the largest drift, saturate the clock instead of trapping")
    func clockAtTheLimit() throws {
        let judged = try Harness.run(#"""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A", "clock": {"offset": "876600h", "driftPpm": 1000000}}, {"id": "B"}],
         "engine": {"kvs": {"uploadDelay": "876600h"}},
         "steps": [{"at": "1s", "device": "A", "op": "clock.jump", "by": "876600h", "every": "1ms", "times": 20000},
                   {"at": "30s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
        """#)
        #expect(judged.outcome.statistics.events > 20_000)
    }

    @Test("kvs.increment past Int64.max is refused with invalidArgument: the value stays, nothing wraps, nothing is lost")
    func incrementOverflow() throws {
        let judged = try Harness.run(#"""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}],
         "steps": [{"at": "0s", "device": "A", "op": "kvs.set", "key": "n", "value": 9223372036854775806},
                   {"at": "1s", "device": "A", "op": "kvs.increment", "key": "n", "by": 5},
                   {"at": "2s", "device": "A", "op": "kvs.increment", "key": "n", "by": -9223372036854775807},
                   {"at": "3s", "device": "A", "op": "kvs.increment", "key": "n", "by": -9223372036854775807},
                   {"at": "4s", "device": "A", "op": "kvs.increment", "key": "n", "by": -9223372036854775807}],
         "expect": {"final": {"kvs": {"n": -9223372036854775808}}, "lostUpdates": 0}}
        """#)
        #expect(judged.passed, "\(judged.expectations)")
        let outcomes = try Harness.events(judged).filter { $0.event == "op" }.compactMap { $0.string("outcome") }
        #expect(outcomes.count == 5 && outcomes.filter { $0.contains("invalidArgument") }.count == 2, "\(outcomes)")
    }
}
