import Foundation
import Testing
import SyncLab

/// Findings only the built-in records apps hosted on the platform showed (`synclab fuzz
/// --profile records --host-records-policies`, session 16), each closed at its root: the
/// platform labels a fetched removal of a field the app never showed (432, 514, 1711), and
/// carries a removal made signed out into the account signed into next (5), and reports the
/// app's pending zone deletion discarded at an account switch (3370) and what the app showed
/// removed by a write absent by no write at sign-out (3370, later); it does
/// not tell the app of a cascade deletion of a record the same request saved again (770); a
/// record gone from the cloud while the app holds its conflict goes up re-stamped (204); and the
/// app keeps a new edit of a record whose conflict it holds with that conflict (849). Each runs
/// its scenario from `Scenarios/`, which names `MergeRecordsApp`.
@Suite("Hosted-only records fuzz findings (session 16)")
struct HostedRecordsFuzzFindingsTests {
    static func run(_ file: String) throws -> RunResult {
        let path = #filePath.replacingOccurrences(of: "Tests/LibraryTests/HostedRecordsFuzzFindingsTests.swift", with: "Scenarios/\(file)")
        return try Scenario(contentsOfFile: path).run()
    }

    @Test("a fetched record without a field the app never showed shows it absent by the removal's write, not half of the record's creation (seed 432)")
    func fetchedRemovalIsShownByItsWrite() throws {
        let run = try Self.run("fuzz-hosted-fetched-removal-shown-by-its-write.json")
        // Before: no report for A's title, so A showed E's creation (E:2) beside the absence E:2 replaced.
        #expect(!run.anomalies.contains { $0.kind == "atomicityViolation" }, "\(run.summary)")
        #expect(run.trace.contains(#""device":"A","store":"records","account":"main","item":"Z/r1","field":"title","write":"B:3","value":null,"cause":"fetch""#),
                "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("a record a cascade reached and the same request saved again stays with the app, as in the cloud (seed 770)")
    func cascadeDoesNotDropARecordSavedInTheSameRequest() throws {
        let run = try Self.run("fuzz-hosted-cascade-and-save-in-one-request.json")
        // Before: the app was told r0 was deleted and dropped what the cloud kept.
        #expect(run.metrics.converged, "\(run.summary)")
        #expect(!run.anomalies.contains { ["resurrection", "atomicityViolation", "divergence"].contains($0.kind) }, "\(run.summary)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("a record gone from the cloud while the app holds its conflict is re-uploaded by a write of the device's own (seed 204)")
    func heldConflictRecordGoneIsRestamped() throws {
        let run = try Self.run("fuzz-hosted-held-conflict-record-gone-restamped.json")
        // Before: A showed r2 with C's re-upload's existence (from the failure), removed by C's zone delete.
        #expect(!run.anomalies.contains { $0.kind == "resurrection" }, "\(run.summary)")
        #expect(run.trace.contains(#""ev":"derivedWrite","device":"A","store":"records","account":"main","item":"Z/r2","write":"A:m"#), "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("an edit of a record whose conflict the app holds waits with the conflict, and goes up re-stamped once the record is gone (seed 849)")
    func editWaitsWithHeldConflict() throws {
        let run = try Self.run("fuzz-hosted-edit-waits-with-held-conflict.json")
        // Before: the edit went at once, tagless, and made r0 again with the existence Ann's delete removed.
        #expect(!run.anomalies.contains { $0.kind == "resurrection" }, "\(run.summary)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("a field removed while signed out moves into the account signed into next with its record (seed 5)")
    func signedOutRemovalIsCarried() throws {
        let run = try Self.run("fuzz-hosted-signed-out-removal-carried.json")
        // Before: the removal A:2 stayed in 'main', reported lost to B's title there.
        #expect(run.metrics.lostUpdates == 0, "\(run.summary)")
        #expect(run.trace.contains(#""device":"A","store":"records","account":"other","item":"Z/r2","field":"title","write":"A:2","value":null"#), "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("a zone deletion the app had not sent is discarded at an account switch with the records it removed, no resurrection (seed 3370)")
    func pendingZoneDeleteIsDiscardedAtSwitch() throws {
        let run = try Self.run("fuzz-hosted-zone-delete-discarded-at-switch.json")
        // Before: the deletion was taken as done, and r0 in the cloud read as back.
        #expect(!run.anomalies.contains { $0.kind == "resurrection" }, "\(run.summary)")
        #expect(run.trace.contains(#""ev":"discarded","device":"C","store":"records","account":"main","item":"Z/r0","write":"C:3","reason":"discarded at account switch""#),
                "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("signing out resets what the app showed removed by another device's write, as the engine does (seed 3370)")
    func signOutResetsShownRemovals() throws {
        let run = try Self.run("fuzz-hosted-signout-resets-shown-removals.json")
        // Before: C's body stayed absent by B's removal, and C's signed-out zone deletion "saw" A's record.
        #expect(!run.anomalies.contains { $0.kind == "resurrection" }, "\(run.summary)")
        #expect(run.trace.contains(#""device":"C","store":"records","account":"main","item":"Z/r0","field":"body","write":null,"value":null,"cause":"reset""#),
                "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }

    @Test("the user's own removal the app still shows is not relabelled by another device's removal in a serverRecordChanged (seed 2664)")
    func ownRemovalIsNotRelabelledByAFailure() throws {
        let run = try Self.run("fuzz-hosted-own-removal-not-relabelled-by-failure.json")
        // Without the guard: A's title read as D's removal, beside D's earlier body (half of D's save).
        #expect(!run.anomalies.contains { $0.kind == "atomicityViolation" }, "\(run.summary)")
        #expect(!run.trace.contains(#""device":"A","store":"records","account":"main","item":"Z/r1","field":"title","write":"D:2","value":null"#), "\(run.trace)")
        #expect(run.passed, "\(run.summary)")
    }
}
