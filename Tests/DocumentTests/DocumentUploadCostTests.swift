import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// An upload costs what it must look at, not the document's whole history (issue 14, item 9):
/// 5,000 saves of one document took 68 s when every upload walked every earlier version.
struct DocumentUploadCostTests {
    @Test func savesBuiltOnTheCurrentVersionWalkNoAncestry() {
        var harness = ServiceHarness()
        var previous: WriteID?
        let count = 3_000
        for sequence in 1...UInt32(count) {
            let version = ServiceHarness.version(1, sequence, "B \(sequence)\n", parents: previous.map { [$0] } ?? [], at: Int64(sequence))
            #expect(harness.upload(version, base: previous) == .accepted)
            previous = version.id
        }
        #expect(harness.service.versionsWalked == 0)
    }

    @Test func anOfflineChainMeetingALongHistoryIsWalkedOnceNotPerSave() {
        var harness = ServiceHarness(winner: .modificationDate)
        // B saves 2,000 versions online; A, offline since B's first, uploads its one edit after.
        var previous: WriteID?
        for sequence in 1...UInt32(2_000) {
            let version = ServiceHarness.version(1, sequence, "B \(sequence)\n", parents: previous.map { [$0] } ?? [], at: Int64(sequence))
            _ = harness.upload(version, base: previous)
            previous = version.id
        }
        let first = WriteID(device: DeviceID(index: 1), sequence: 1)
        let offline = ServiceHarness.version(0, 1, "A offline\n", parents: [first], at: 1)
        #expect(harness.upload(offline, base: first) == .conflictLost)
        // A's ancestry is one version: the walk does not depend on B's 2,000.
        #expect(harness.service.versionsWalked <= 2, "walked \(harness.service.versionsWalked)")
    }

    @Test func anUploadRefusedForQuotaLeavesNoTraceInTheHistory() {
        var harness = ServiceHarness(storageBytes: 12)
        let first = ServiceHarness.version(0, 1, "short\n", at: 1)
        #expect(harness.upload(first, base: nil) == .accepted)
        let tooBig = ServiceHarness.version(0, 2, "far too long for the quota\n", parents: [first.id], at: 2)
        #expect(harness.upload(tooBig, base: first.id) == .quotaExceeded)
        #expect(harness.state()?.current.id == first.id)
        // A retry after space is freed is judged again, not acknowledged as already applied.
        #expect(harness.upload(tooBig, base: first.id) == .quotaExceeded)
    }
}
