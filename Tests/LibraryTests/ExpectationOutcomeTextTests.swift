import Testing
import SyncLab

/// A failed expectation reads from Swift as `synclab run` prints it: the Swift Testing issues
/// use `ExpectationOutcome.description`, which said "noAnomalies[0]: wanted
/// {"kind":"divergence"}, got 1", as if the divergence had been wanted.
@Suite("ExpectationOutcome's description")
struct ExpectationOutcomeTextTests {
    @Test("a pattern says what was wanted of it and how many anomalies matched; a count keeps wanted/got")
    func readsAsTheCommandLine() throws {
        let result = try Scenario(text: """
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}], "end": {"heal": false},
         "steps": [{"at": "1s", "device": "B", "op": "airplane.on"}, {"at": "2s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}],
         "expect": {"noAnomalies": ["divergence"], "lostUpdates": 1}}
        """).run()
        let text = result.failedExpectations.map(\.description)
        #expect(text == [#"lostUpdates: wanted 1, got 0"#, #"noAnomalies[0]: wanted no anomaly matching {"kind":"divergence"}, found 1"#], "\(text)")
    }
}
