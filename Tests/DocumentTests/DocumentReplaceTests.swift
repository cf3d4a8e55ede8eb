import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// `DocumentRequest.replace` (`NSFileVersion.replaceItem(at:)`): a conflict version made current
/// with its own write, applied only while the document is as the app saw it.
@Suite("Documents cloud: replacing the current version")
struct DocumentReplaceTests {
    typealias H = ServiceHarness
    let a1 = H.version(0, 1, "v1\n", at: 0)

    /// v1, then B's edit (current by modification date) and A's older concurrent edit (conflict
    /// version), then C's, another conflict version.
    func conflicted() -> (H, a2: DocumentVersion, b3: DocumentVersion, c1: DocumentVersion) {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let b3 = H.version(1, 3, "BBBB\n", parents: [a1.id], at: 28)
        _ = cloud.upload(b3, base: a1.id)
        let a2 = H.version(0, 2, "A\n", parents: [a1.id], at: 20)
        _ = cloud.upload(a2, base: a1.id)
        let c1 = H.version(2, 1, "CC\n", parents: [a1.id], at: 10)
        _ = cloud.upload(c1, base: a1.id)
        return (cloud, a2, b3, c1)
    }

    @Test("the chosen version becomes current keeping its write; the replaced one and the named others go, their storage freed")
    func replaceMakesChosenCurrent() {
        var (cloud, a2, b3, c1) = conflicted()
        #expect(cloud.state()?.current.id == b3.id && cloud.state()?.conflicts.count == 2)
        let pushes = cloud.pushes
        let request = DocumentReplacement(path: "note.txt", replacing: b3.id, chosen: a2.id, resolves: [c1.id])
        guard case .resolved(_, let applied, let state)? = cloud.send(.replace(request)) else { Issue.record("no reply"); return }
        #expect(applied)
        #expect(state?.current == a2 && state?.inConflict == false)
        #expect(cloud.storage.used(by: AccountID(0)) == 2)
        #expect(cloud.service.survivingWrites(account: AccountID(0)).isEmpty)
        #expect(cloud.pushes == pushes + 1)
        #expect(cloud.service.finalView(account: AccountID(0)).first?.write == a2.id)
    }

    @Test("without resolves the other conflict versions stay")
    func replaceKeepsUnnamedVersions() {
        var (cloud, a2, b3, c1) = conflicted()
        let request = DocumentReplacement(path: "note.txt", replacing: b3.id, chosen: a2.id, resolves: [])
        guard case .resolved(_, true, let state)? = cloud.send(.replace(request)) else { Issue.record("not applied"); return }
        #expect(state?.current.id == a2.id && state?.conflicts.map(\.version.id) == [c1.id])
    }

    @Test("a version resolved away meanwhile, or a current version changed since, is not replaced: nothing changes")
    func staleReplaceIsRefused() {
        var (cloud, a2, b3, c1) = conflicted()
        // Another device resolved first, keeping B's version.
        _ = cloud.send(.resolve(path: "note.txt", resolves: [a2.id, c1.id]))
        let pushes = cloud.pushes
        guard case .resolved(_, let applied, let state)? = cloud.send(.replace(DocumentReplacement(path: "note.txt", replacing: b3.id, chosen: a2.id, resolves: [c1.id]))) else {
            Issue.record("no reply"); return
        }
        #expect(!applied && state?.current.id == b3.id && state?.inConflict == false)
        #expect(cloud.pushes == pushes)

        var (edited, a2e, b3e, _) = conflicted()
        // B saved again on its version: the replacement must not overwrite that save unseen.
        let b4 = H.version(1, 4, "B2\n", parents: [b3e.id], at: 40)
        #expect(edited.upload(b4, base: b3e.id) == .accepted)
        guard case .resolved(_, false, let after)? = edited.send(.replace(DocumentReplacement(path: "note.txt", replacing: b3e.id, chosen: a2e.id, resolves: []))) else {
            Issue.record("applied"); return
        }
        #expect(after?.current.id == b4.id && after?.conflicts.count == 2)
        #expect(edited.send(.replace(DocumentReplacement(path: "gone.txt", replacing: b3e.id, chosen: a2e.id, resolves: []))) == .resolved(path: "gone.txt", applied: false, state: nil))
    }
}
