import Testing
@testable import SyncLabSimulation
import SyncLabRunner

/// `expect.final.records` reads records as an `assert` without `database` does: the first
/// account's private database, or the public database for a record only it holds. A record in
/// the public database could not be checked at all (it read null).
@Suite("expect.final reads a public record")
struct FinalPublicRecordTests {
    private func outcomes(_ final: String) throws -> [(String, Bool, String)] {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "record.save", "type": "Note", "name": "both", "fields": {"v": "private"}},
           {"at": "0s", "device": "A", "op": "record.save", "database": "public", "type": "Note", "name": "both", "fields": {"v": "public"}},
           {"at": "0s", "device": "A", "op": "record.save", "database": "public", "type": "Post", "name": "p", "fields": {"title": "Hello"}}
         ],
         "expect": {"final": {"records": \(final)}}}
        """)
        return judged.expectations.map { ($0.name, $0.passed, $0.actual.rendered()) }
    }

    @Test func aRecordOnlyThePublicDatabaseHoldsIsRead() throws {
        let results = try outcomes(#"{"_defaultZone/p": {"title": "Hello"}, "_defaultZone/both": {"v": "private"}, "_defaultZone/none": null}"#)
        #expect(results.map(\.0) == ["final.records._defaultZone/p", "final.records._defaultZone/both", "final.records._defaultZone/none"])
        #expect(results.map(\.1) == [true, true, true], "\(results)")
        #expect(results[0].2 == #"{"title":"Hello"}"#)
    }

    @Test func aPublicRecordIsNotAbsent() throws {
        let results = try outcomes(#"{"_defaultZone/p": null}"#)
        #expect(results.map(\.1) == [false])
    }

    /// `{}` asks only that the record exist; an assert's failure said "expected fields " with
    /// nothing after it. Listed fields say what each should hold, absent included ("expected
    /// fields v, w" named a field wanted absent as if it were wanted).
    @Test func anAssertWantingAnyRecordSaysItShouldExist() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}],
         "steps": [{"at": "1s", "device": "A", "op": "assert", "records": {"_defaultZone/none": {}, "_defaultZone/n2": {"v": 1, "w": null, "t": "x"}}}]}
        """)
        let failures = judged.expectations.filter { !$0.passed }.map { $0.actual.rendered() }
        #expect(failures == [#""steps[0] assert on A at 1s: record \"_defaultZone/none\" is absent, expected it to exist; record \"_defaultZone/n2\" is absent, expected it to exist with v = 1, w absent, t = \"x\"""#], "\(failures)")
    }

    /// A record wanted absent that exists shows what it holds: the failure read
    /// `wanted null, got {}`, as if the record had no fields (none were listed to read).
    @Test func aRecordWantedAbsentShowsItsFields() throws {
        let results = try outcomes(#"{"_defaultZone/p": null, "_defaultZone/both": null}"#)
        #expect(results.map(\.1) == [false, false])
        #expect(results.map(\.2) == [#"{"title":"Hello"}"#, #"{"v":"private"}"#])
    }
}
