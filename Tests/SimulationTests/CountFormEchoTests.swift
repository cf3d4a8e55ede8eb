import Testing
import SyncLabScenario
import SyncLabJSON
import SyncLabResult
@testable import SyncLabSimulation

/// A count expectation is echoed in the form the user wrote it (`result.json`'s `wanted`, the
/// reports): `{"min": 1, "max": 1}` stays a range, `1` stays an integer. A range with equal
/// bounds used to be shown as the bare integer.
@Suite("Count expectations keep their written form")
struct CountFormEchoTests {
    static let text = """
    {"format": "synclab/1", "name": "forms", "devices": [{"id": "A"}, {"id": "B"}],
     "steps": [{"at": "0s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}],
     "expect": {"lostUpdates": {"min": 0, "max": 0}, "conflicts": 0,
                "notifications": [{"device": "B", "reason": "serverChange", "min": 1, "max": 1}]}}
    """

    @Test func equalBoundsStayARangeAndAnIntegerStaysAnInteger() throws {
        let judged = try Harness.run(Self.text)
        let wanted = Dictionary(uniqueKeysWithValues: judged.expectations.map { ($0.name, $0.wanted.rendered()) })
        #expect(wanted["lostUpdates"] == #"{"min":0,"max":0}"#)
        #expect(wanted["conflicts"] == "0")
        #expect(wanted["notifications[0] B serverChange"] == #"{"min":1,"max":1}"#)
        #expect(judged.expectations.filter { !$0.passed }.map(\.name) == [])
    }

    @Test func theDescriptionEchoesTheFormToo() {
        #expect(CountExpectation(min: 2, max: 2).description == #"{"min": 2, "max": 2}"#)
        #expect(CountExpectation.exactly(2).description == "2")
    }
}
