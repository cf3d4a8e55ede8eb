import Testing
import SyncLabJSON
import SyncLabResult
import SyncLabReports

/// How a failed expectation reads in the summary, JUnit and annotations. `anomalies[i]` and
/// `noAnomalies[i]` hold a pattern as `wanted` and a count of matches as `actual`, so "NAME:
/// wanted W, got A" read backwards: "noAnomalies[0]: wanted {"kind":"divergence"}, got 1", as
/// if the divergence had been wanted.
@Suite("The sentence of a failed expectation")
struct ExpectationSentenceTests {
    static let divergence = JSON.object([("kind", .string("divergence"))])

    @Test("patterns say what was wanted of them and how many anomalies matched; counts and values keep wanted/got")
    func sentences() {
        #expect(ExpectationResult(name: "noAnomalies[0]", wanted: Self.divergence, actual: .int(1), passed: false).sentence
                == #"noAnomalies[0]: wanted no anomaly matching {"kind":"divergence"}, found 1"#)
        #expect(ExpectationResult(name: "anomalies[2]", wanted: Self.divergence, actual: .int(0), passed: false).sentence
                == #"anomalies[2]: wanted an anomaly matching {"kind":"divergence"}, found none"#)
        #expect(ExpectationResult(name: "invariant atomicityViolation", wanted: .int(0), actual: .int(2), passed: false).sentence
                == "invariant atomicityViolation: found 2 that expect.anomalies does not name (an engine or app bug under every policy)")
        #expect(ExpectationResult(name: "assert", wanted: .string("holds"), actual: .string(#"steps[4] assert on A at 30s: kvs "k" is 1, expected 2"#), passed: false).sentence
                == #"assert: steps[4] assert on A at 30s: kvs "k" is 1, expected 2"#)
        #expect(ExpectationResult(name: "end.maxEvents", wanted: .int(5), actual: .string("event cap hit after 5 events: a runaway run, not judged"), passed: false).sentence
                == "end.maxEvents: event cap hit after 5 events: a runaway run, not judged")
        #expect(ExpectationResult(name: "lostUpdates", wanted: .int(0), actual: .int(1), passed: false).sentence == "lostUpdates: wanted 0, got 1")
        #expect(ExpectationResult(name: "final.kvs.k", wanted: .int(2), actual: .int(1), passed: false).sentence == "final.kvs.k: wanted 2, got 1")
    }

    @Test("the text summary and JUnit print the sentence")
    func summaryAndJUnit() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}], "end": {"heal": false},
         "steps": [{"at": "1s", "device": "B", "op": "airplane.on"}, {"at": "2s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}],
         "expect": {"noAnomalies": ["divergence"], "anomalies": [{"kind": "resurrection"}]}}
        """)
        let summary = TextSummary.render(judged, file: "t.json")
        #expect(summary.contains(#"expectation failed: noAnomalies[0]: wanted no anomaly matching {"kind":"divergence"}, found 1"#), "\(summary)")
        #expect(summary.contains(#"expectation failed: anomalies[0]: wanted an anomaly matching {"kind":"resurrection"}, found none"#), "\(summary)")
        let junit = JUnitReport.render([.run(file: "t.json", judged: judged)])
        #expect(junit.contains("noAnomalies[0]: wanted no anomaly matching {&quot;kind&quot;:&quot;divergence&quot;}, found 1"), "\(junit)")
    }
}
