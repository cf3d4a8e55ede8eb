import Testing
import SyncLabExplore

/// Session 15: records `merge` findings after the fuzz generator began drawing field removals
/// with `null` (docs/FUZZING.md).
extension FindingTests {
    /// B makes r0 with a title; E, having fetched it, removes the title (`null`) while C, just
    /// reinstalled and never having fetched r0, saves its own title. C's save meets E's version
    /// with no ancestor: E's removal is E's change, so the merge decides by the fields' dates and
    /// logs it. Before the fix the removal counted as no change and C's title silently replaced
    /// it: E's removal lost with no last-writer-wins decision documenting the loss.
    @Test("a user's field removal meets a save from a device that never fetched the record (records seed 191, minimal)")
    func aRemovalMeetsASaveWithoutAncestor() throws {
        let judged = try Self.runFixture("records-seed-191-removal-meets-save-without-ancestor.json")
        let anomalies = judged.outcome.report.anomalies
        #expect(!anomalies.contains { $0.kind == .lostUpdate && $0.write == "E:2" }, "E's removal is the later edit by its write id")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// C makes r0 with a body while signed out, signs in and removes the body (`null`); its save
    /// fails with `zoneNotFound` and goes up again as a new record. The iPad, never having fetched
    /// r0, then saves a body. Before the fix the re-upload dropped the removal, so the iPad's body
    /// took the field with no decision logged; now the removal goes up as C's write and the iPad's
    /// merge decides by the fields' dates, logged.
    @Test("a re-upload as a new record keeps the user's removal among its edits (records seed 2865, minimal)")
    func aReuploadKeepsTheUsersRemoval() throws {
        let judged = try Self.runFixture("records-seed-2865-reupload-keeps-user-removal.json")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// C's removal of its own unsent body goes up as a removal; the iPad, whose ancestor lacked
    /// the body, saves one. Before the fix the removal counted as no change against that ancestor
    /// and the iPad's body replaced it with no decision logged.
    @Test("a user's removal is a change even against an ancestor that lacked the field (records seed 2865, shrunk again)")
    func aRemovalIsAChangeAgainstAnAncestorWithoutTheField() throws {
        let judged = try Self.runFixture("records-seed-2865-removal-against-ancestor-without-field.json")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
