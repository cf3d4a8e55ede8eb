import Testing
import SyncLabExplore

/// Session 14: records findings past seed 10,000 (docs/FUZZING.md, session 14).
extension FindingTests {
    /// B shows r0 deleted by D's delete, signs out, and while signed out makes r0 and r1 in one
    /// atomic call, then deletes r1. Signing out drops everything of the account from the device,
    /// so r0's creation is built on nothing, not on D's delete (and every version that delete had
    /// seen); r1's return at sign-in, with the version B's delete never saw, is no resurrection.
    @Test("signing out makes records shown deleted by a write absent by no write (records seed 39074, minimal)")
    func signingOutResetsRecordsShownDeleted() throws {
        let judged = try Self.runFixture("records-seed-39074-signout-resets-fetched-deletes.json")
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .resurrection }, "B:3 never saw B:1")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// C deletes r0 (its title absent by that delete); A's atomic saves set the title; D deletes
    /// r0 and saves it again with only a body, removing the title. C fetches D's version: the
    /// title is still absent, but by D's save, and the engine shows it so, as it shows an equal
    /// value with a newer write; C no longer seems to show part of A's atomic save.
    @Test("a fetched field removal is shown by its write even where the field was already absent (mixed seed 43486, minimal)")
    func aFetchedRemovalIsShownByItsWrite() throws {
        let judged = try Self.runFixture("mixed-seed-43486-fetched-removal-shown-by-its-write.json")
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .atomicityViolation }, "C shows A's saves whole, then D's")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
