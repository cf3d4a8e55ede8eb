import Testing
import SyncLab

/// A pending write discarded whole (sign-out, account switch, app deletion, a zone the user
/// deleted) is one `lostUpdate`; when it lost several items, `expect.anomalies` and
/// `noAnomalies` match each of them (spec27).
@Suite struct DiscardedWriteItemsTests {
    /// A offline: an atomic call over x and y, then a save of two fields of e; then sign-out.
    private static let text = """
    {"format": "synclab/1", "name": "discarded items", "seed": 1,
     "devices": [{"id": "A"}, {"id": "B"}],
     "steps": [
       {"at": "0s", "device": "A", "op": "zone.create", "zone": "Z"},
       {"at": "1s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "e", "fields": {"a": 0, "b": 0}},
       {"at": "10s", "device": "A", "op": "airplane.on"},
       {"at": "11s", "device": "A", "op": "records.saveAtomic", "zone": "Z",
        "records": [{"type": "T", "name": "x", "fields": {"a": 1}}, {"type": "T", "name": "y", "fields": {"a": 1}}]},
       {"at": "12s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "e", "fields": {"a": 1, "b": 1}},
       {"at": "20s", "device": "A", "op": "account.signOut"}],
     "expect": {"lostUpdates": 2,
       "anomalies": [{"kind": "lostUpdate", "item": "Z/y", "device": "A"},
                     {"kind": "lostUpdate", "item": "Z/y.a", "device": "A"},
                     {"kind": "lostUpdate", "item": "Z/e.b", "device": "A"}],
       "noAnomalies": [{"kind": "lostUpdate", "item": "Z/other"}]}}
    """

    @Test("a discarded atomic call over two records and a discarded save of two fields match an expectation naming the second item")
    func secondItemOfADiscardedWriteMatches() throws {
        let result = try Scenario(text: Self.text).run()
        // Before: the anomaly named only its first item (Z/x, Z/e.a): Z/y and Z/e.b matched no
        // anomaly, and a `noAnomalies` naming them passed although their values were lost.
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        #expect(result.resultJSON.contains(#""Z/x",\#n        "Z/x.a",\#n        "Z/y",\#n        "Z/y.a""#), "result.json lists the call's items")
    }

    @Test("noAnomalies naming the second record of a discarded atomic call fails")
    func noAnomaliesNamingALostItemFails() throws {
        let text = Self.text.replacingOccurrences(of: #"{"kind": "lostUpdate", "item": "Z/other"}"#,
                                                  with: #"{"kind": "lostUpdate", "item": "Z/y"}"#)
        let result = try Scenario(text: text).run()
        #expect(result.failedExpectations.count == 1, "\(result.failedExpectations)")
    }

    @Test("a kvs.setMany discarded by app deletion lists its keys; a discarded save of one field lists none")
    func itemsOnlyForSeveralValues() throws {
        let kvs = try Scenario(text: Self.text
            .replacingOccurrences(of: #"{"at": "20s", "device": "A", "op": "account.signOut"}"#, with: """
                {"at": "13s", "device": "A", "op": "kvs.setMany", "values": {"k1": 1, "k2": 2}},
                {"at": "20s", "device": "A", "op": "app.delete"}
                """)
            .replacingOccurrences(of: #""anomalies": ["#, with: #""anomalies": [{"kind": "lostUpdate", "item": "k2"},"#)
            .replacingOccurrences(of: #""lostUpdates": 2,"#, with: #""lostUpdates": 3,"#)).run()
        #expect(kvs.failedExpectations.isEmpty, "\(kvs.failedExpectations)")
        #expect(kvs.resultJSON.contains(#""k1",\#n        "k2""#), "the setMany's keys")
        let oneField = Self.text.replacingOccurrences(of: #""fields": {"a": 1, "b": 1}"#, with: #""fields": {"a": 1}"#)
            .replacingOccurrences(of: #"{"kind": "lostUpdate", "item": "Z/e.b", "device": "A"}"#, with: #"{"kind": "lostUpdate", "item": "Z/e.a", "device": "A"}"#)
        let single = try Scenario(text: oneField).run()
        #expect(single.failedExpectations.isEmpty, "\(single.failedExpectations)")
        #expect(!single.resultJSON.contains(#""Z/e",\#n        "Z/e.a""#), "one field lost: no items list")
    }
}
