import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The held versions a fetch names are kept beside the documents as they change
/// (`DocumentTable`) instead of built from every document at each fetch: after every message of
/// an exchange with offline edits, conflicts, a crash and each policy, the kept map equals the
/// one a pass over every document builds.
@Suite("Documents engine's held versions")
struct DocumentHeldVersionsTests {
    static func expectHeldKept(_ world: DocumentWorld, sourceLocation: SourceLocation = #_sourceLocation) {
        for device in world.engines.indices {
            guard let documents = world.engines[device]?.state.documents else { continue }
            #expect(documents.held == documents.heldFromScratch, "device \(device)", sourceLocation: sourceLocation)
        }
    }

    @Test("after every step, the kept held map equals the one built from every document", arguments: DocumentConflictPolicy.allCases)
    func heldKeptThroughConflicts(_ policy: DocumentConflictPolicy) {
        var world = DocumentEngineTests.airplaneWorld(policy)
        Self.expectHeldKept(world)
        world.setOnline(1, false)
        world.save(1, "other.txt", "B offline\n", write: 2)
        world.append(1, DocumentEngineTests.note, "B again\n", write: 3)
        world.save(0, DocumentEngineTests.note, "A again\n", write: 3)
        Self.expectHeldKept(world)
        world.crashAndRestart(1)
        Self.expectHeldKept(world)
        world.setOnline(1, true)
        var random: SeededRandom? = SeededRandom(seed: 7, stream: "held")
        while world.step(&random) {
            Self.expectHeldKept(world)
        }
        _ = world.delete(0, "other.txt", write: 4)
        world.run()
        Self.expectHeldKept(world)
        #expect(world.engines.allSatisfy { $0?.state.documents.held.isEmpty == false })
    }

    @Test("a change made in place through the table (not replacing the document) refreshes its path's held versions")
    func changeInPlaceRefreshesHeld() {
        func version(_ sequence: UInt32, _ text: String) -> DocumentVersion {
            DocumentVersion(id: WriteID(device: DeviceID(0), sequence: sequence), parents: [], modifiedAt: LocalInstant(microseconds: 0),
                            author: DeviceID(0), authorName: "A", body: .content(.text(text)))
        }
        var table = DocumentTable()
        table["a.txt"] = LocalDocument(path: "a.txt")
        #expect(table.held.isEmpty)
        table["a.txt"]?.pending.append(version(1, "one"))
        #expect(table.held["a.txt"] == HeldVersions(own: [WriteID(device: DeviceID(0), sequence: 1)]))
        table["a.txt"]?.pending.removeAll()
        #expect(table.held.isEmpty && table.held == table.heldFromScratch)
        table.removeAll()
        #expect(table.count == 0 && table.held.isEmpty)
    }
}
