import Testing
import SyncLabExplore

/// Session 13: false records `merge` findings after the checker began judging a field set to
/// null as a value that can be lost (docs/FUZZING.md; 10,000-seed records campaign).
extension FindingTests {
    /// A and C save r1's body concurrently; C, during an outage, deletes r1 and then saves it
    /// again with only `title`. The engine sends the delete and the save as one save, the body
    /// shown absent by that save; A's merge keeps A's body. C's save never set the body to null:
    /// the body went with C's delete, and A's edit winning over a delete is no lost update.
    @Test("a record saved again after a delete does not lose the fields the delete removed (records seed 2505, minimal)")
    func aRecreationDoesNotLoseTheDeletesRemoval() throws {
        let judged = try Self.runFixture("records-seed-2505-recreation-carries-the-deletes-removal.json")
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .lostUpdate }, "C:3 never named body")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }

    /// The same through an atomic call: B deletes r1 and makes it again with only `title` in
    /// `records.saveAtomic` while A, not having seen the delete, sets r1's body.
    @Test("an atomic call that saves a record again after a delete does not lose the fields the delete removed (records seed 3036, minimal)")
    func anAtomicRecreationDoesNotLoseTheDeletesRemoval() throws {
        let judged = try Self.runFixture("records-seed-3036-atomic-recreation-carries-the-deletes-removal.json")
        #expect(!judged.outcome.report.anomalies.contains { $0.kind == .lostUpdate && $0.field == "body" }, "B:4 never named body")
        #expect(PromiseJudge.findings(judged, rule: .promises).isEmpty)
    }
}
