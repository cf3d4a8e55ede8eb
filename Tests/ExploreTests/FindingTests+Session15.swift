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
}
