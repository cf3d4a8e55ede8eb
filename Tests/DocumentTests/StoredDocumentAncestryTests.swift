import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabCloud

/// The cloud caches a conflicted document's ancestry; every change to what it is made of must
/// drop the cache, so `state` is always what a fresh computation gives.
@Suite("Stored document ancestry cache")
struct StoredDocumentAncestryTests {
    static func version(_ sequence: UInt32, _ text: String?, parents: [WriteID] = []) -> DocumentVersion {
        ServiceHarness.version(0, sequence, text, parents: parents, at: Int64(sequence))
    }

    static let root = version(1, "root")
    static let mine = version(2, "mine", parents: [root.id])
    static let theirs = version(3, "theirs", parents: [root.id])

    /// `mine` current, `theirs` in conflict, the common root known only as a stub; cache filled.
    static func conflicted() -> StoredDocument {
        var document = StoredDocument(path: "a.txt", current: mine, changedAt: 1)
        document.remember(root.stub)
        document.remember(theirs)
        document.conflicts = [DocumentConflict(version: theirs, ordinal: 1)]
        document.refreshAncestry()
        return document
    }

    /// The same document built anew, so nothing is cached.
    static func uncached(_ document: StoredDocument) -> DocumentState {
        var fresh = StoredDocument(path: document.path, current: document.current, changedAt: document.changedAt)
        fresh.history = document.history
        fresh.conflicts = document.conflicts
        return fresh.state
    }

    @Test func learningAVersionsContentUpdatesTheAncestry() throws {
        var document = Self.conflicted()
        #expect(document.state.ancestry == [Self.root.stub])
        document.remember(Self.root)
        #expect(document.state.ancestry == [Self.root])
        #expect(document.state == Self.uncached(document))
    }

    /// `conflicted()` after learning `version` with the cache refreshed, then changed by `change`.
    static func changed(learning version: DocumentVersion, _ change: (inout StoredDocument) -> Void) -> StoredDocument {
        var document = conflicted()
        document.remember(version)
        document.refreshAncestry()
        change(&document)
        return document
    }

    @Test func aNewCurrentVersionUpdatesTheAncestry() {
        let next = Self.version(4, "next", parents: [Self.mine.id])
        let document = Self.changed(learning: next) { $0.current = next }
        #expect(document.state.ancestry.map(\.id) == [Self.root.id, Self.mine.id])
        #expect(document.state == Self.uncached(document))
    }

    @Test func anotherConflictVersionUpdatesTheAncestry() {
        let other = Self.version(5, "other", parents: [Self.theirs.id])
        let document = Self.changed(learning: other) { $0.conflicts.append(DocumentConflict(version: other, ordinal: 2)) }
        #expect(document.state.ancestry.map(\.id) == [Self.root.id])
        #expect(document.state == Self.uncached(document))
    }

    @Test func aRefreshedDocumentGivesTheSameStateAsAFreshOne() {
        let document = Self.conflicted()
        #expect(document.state == Self.uncached(document))
    }
}
