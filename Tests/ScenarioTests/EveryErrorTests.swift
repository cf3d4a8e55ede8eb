import Testing
import SyncLabJSON
@testable import SyncLabScenario

/// A duplicate key is an error (SPEC §5) that does not hide the file's other errors: all errors
/// in a file are reported together.
@Suite("Duplicate keys")
struct DuplicateKeyTests {
    @Test func aDuplicateKeyIsReportedWithTheOtherErrorsOfTheFile() {
        let errors = Load.errors("""
        {"format": "synclab/1", "name": "d",
         "devices": [{"id": "A", "id": "B"}],
         "steps": [{"at": "1s", "device": "Z", "op": "kvs.set", "key": "k", "value": 1}]}
        """)
        #expect(errors.count == 2, "\(Load.describe(errors))")
        #expect(errors.first?.path == "devices[0].id")
        #expect(errors.first?.message.contains("duplicate key \"id\" (first at line 2, column 15)") == true)
        #expect(errors.last?.path == "steps[0].device")
    }

    @Test func theFirstValueOfADuplicateKeyStandsSoItsUsesAreNotErrorsToo() {
        // B is never declared (the first "id" stands), so only the duplicate and "B" are errors;
        // the step on A is fine.
        let errors = Load.errors("""
        {"format": "synclab/1", "name": "d", "devices": [{"id": "A", "id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
        """)
        #expect(errors.map(\.path) == ["devices[0].id"], "\(Load.describe(errors))")
    }

    @Test func theStrictReaderStillRefusesADuplicateAndTheCollectingOneListsEach() throws {
        let text = #"{"a": 1, "a": 2, "b": {"c": 1, "c": 2}}"#
        #expect(throws: JSONParseError.self) { try JSON5Reader.parse(text) }
        var duplicates: [JSONParseError] = []
        let root = try JSON5Reader.parse(bytes: Array(text.utf8), duplicates: &duplicates)
        #expect(duplicates.map { $0.path ?? "" } == ["a", "b.c"])
        guard case .integer(let first)? = root["a"]?.value else { Issue.record("no integer a"); return }
        #expect(first == 1)
    }
}

/// SPEC §5: all errors in a file are reported, so a step's bad time or device does not hide
/// the mistakes in its arguments.
@Suite("Every error of a step")
struct StepErrorsTests {
    @Test func aBadTimeAndDeviceDoNotHideTheArgumentsErrors() {
        let errors = Load.errors("""
        {"format": "synclab/1", "name": "d", "devices": [{"id": "A"}],
         "steps": [{"at": "soon", "device": "Z", "op": "kvs.set", "key": 5, "value": null}]}
        """)
        #expect(errors.map(\.path) == ["steps[0].at", "steps[0].device", "steps[0].key", "steps[0].value"], "\(Load.describe(errors))")
    }

    @Test func aStepAfterTheDurationStillHasItsArgumentsChecked() {
        // A time past `duration` (or a repetition that runs past it) used to end the step's
        // checks, so its null value was only reported once the time was fixed.
        let errors = Load.errors("""
        {"format": "synclab/1", "name": "d", "duration": "10s", "devices": [{"id": "A"}],
         "steps": [{"at": "20s", "device": "A", "op": "kvs.set", "key": "k", "value": null},
                   {"at": "5s", "every": "5s", "times": 3, "device": "A", "op": "doc.save", "path": "", "content": "x"}]}
        """)
        #expect(errors.map(\.path) == ["steps[0].at", "steps[0].value", "steps[1].times", "steps[1].path"], "\(Load.describe(errors))")
    }
}
