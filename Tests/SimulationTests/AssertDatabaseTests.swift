import Testing
import SyncLabScenario
@testable import SyncLabSimulation
import SyncLabRunner

/// An `assert` names its database as the record ops do (`"database": "public"`), so it can
/// read the public database's record where the private one holds the same zone and name.
@Suite("An assert reads the database it names")
struct AssertDatabaseTests {
    private let steps = """
      {"at": "0s", "device": "A", "op": "record.save", "type": "Note", "name": "n", "fields": {"v": "private"}},
      {"at": "0s", "device": "A", "op": "record.save", "database": "public", "type": "Note", "name": "n", "fields": {"v": "public"}},
    """

    private func failures(_ asserts: String) throws -> [String] {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}],
         "steps": [\(steps) \(asserts)]}
        """)
        return judged.expectations.filter { !$0.passed }.map(\.name)
    }

    @Test func aPublicAssertReadsThePublicRecord() throws {
        #expect(try failures("""
          {"at": "30s", "device": "A", "op": "assert", "database": "public", "records": {"_defaultZone/n": {"v": "public"}}},
          {"at": "30s", "device": "A", "op": "assert", "database": "private", "records": {"_defaultZone/n": {"v": "private"}}},
          {"at": "30s", "device": "A", "op": "assert", "records": {"_defaultZone/n": {"v": "private"}}}
        """).isEmpty)
        #expect(try failures("""
          {"at": "30s", "device": "A", "op": "assert", "database": "public", "records": {"_defaultZone/n": {"v": "private"}}}
        """) == ["assert"])
    }

    private func errorPaths(_ step: String) -> [String] {
        let text = #"{"format": "synclab/1", "name": "t", "devices": [{"id": "A"}], "steps": ["# + step + "]}"
        guard case .failure(let errors) = ScenarioLoader.parse(text: text, path: "t.json") else { return [] }
        return errors.errors.map(\.path)
    }

    @Test func anUnknownDatabaseIsBadInput() {
        #expect(errorPaths(#"{"at": "1s", "device": "A", "op": "assert", "database": "shared", "records": {"_defaultZone/n": null}}"#) == ["steps[0].database"])
        // `database` alone checks nothing.
        #expect(errorPaths(#"{"at": "1s", "device": "A", "op": "assert", "database": "public"}"#) == ["steps[0]"])
    }
}
