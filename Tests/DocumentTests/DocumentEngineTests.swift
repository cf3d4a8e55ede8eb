import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

@Suite("Documents engine with the cloud service")
struct DocumentEngineTests {
    static let note = "note.txt"

    /// The notes-app bug of seed 004 up to the reconnect: A saves v1, edits offline at 20 s,
    /// B (clock 2 s behind) saves online at 30 s, A reconnects at 60 s.
    static func airplaneWorld(_ policy: DocumentConflictPolicy, seed: UInt64? = nil, withoutApps: Bool = false) -> DocumentWorld {
        var world = DocumentWorld(devices: ["A", "B"], settings: EngineSettings(documents: DocumentSettings(conflict: policy)))
        if withoutApps { for index in world.engines.indices { world.engines[index]?.builtInApp = nil } }
        world.clockOffsetsMicroseconds[1] = -2_000_000
        world.run()
        world.save(0, note, "v1\n", write: 1)
        world.run()
        world.nowMicroseconds = 10_000_000
        world.setOnline(0, false)
        world.nowMicroseconds = 20_000_000
        world.save(0, note, "v1\nA offline\n", write: 2)
        world.nowMicroseconds = 30_000_000
        world.save(1, note, "v1\nB online\n", write: 1)
        world.run()
        world.nowMicroseconds = 60_000_000
        world.setOnline(0, true)
        world.run(seed: seed)
        return world
    }

    static func expectConverged(_ world: DocumentWorld, sourceLocation: SourceLocation = #_sourceLocation) {
        for device in world.engines.indices {
            #expect(world.view(device) == world.cloudView, "device \(device) diverges", sourceLocation: sourceLocation)
            #expect(world.engines[device]?.isQuiescent == true, sourceLocation: sourceLocation)
        }
    }

    @Test("an offline edit folds later saves into one upload whose base is the version edited, not one downloaded meanwhile")
    func offlineEditsFoldWithTheirBase() {
        var world = DocumentWorld(devices: ["A", "B"])
        world.run()
        world.save(0, Self.note, "v1\n", write: 1)
        world.run()
        world.setOnline(0, false)
        world.save(0, Self.note, "v1\nx\n", write: 2)
        world.append(0, Self.note, "y\n", write: 3)
        #expect(world.engines[0]?.pendingWrites().map(\.0) == [world.write(0, 2), world.write(0, 3)])
        world.save(1, Self.note, "v1\nB\n", write: 1)
        world.run()
        world.sentRequests = []
        world.setOnline(0, true)
        world.run()
        let uploads = world.sentRequests.compactMap { entry -> DocumentUpload? in
            guard entry.device == 0, case .upload(let upload) = entry.1 else { return nil }
            return upload
        }
        // A fetched B's version before uploading, and still uploaded on v1.
        #expect(world.sentRequests.first.map { if case .fetch = $0.1 { return true } else { return false } } == true)
        #expect(uploads.first?.base == world.write(0, 1))
        #expect(uploads.first?.version.id == world.write(0, 3))
        #expect(uploads.first?.version.body == .content(.text("v1\nx\ny\n")))
        #expect(uploads.first?.chain.map(\.id) == [world.write(0, 2)])
        #expect(uploads.first?.chain.first?.body == .unavailable)
        #expect(world.conflictDetectedCount == 1)
        // The download of B's version never replaced A's pending edit on screen.
        let fetchedBeforeUpload = world.visibles(0).filter { $0.2 == world.write(1, 1) }
        #expect(fetchedBeforeUpload.count <= 1)
    }

    @Test("a device with an un-uploaded edit keeps showing it when a newer version arrives")
    func pendingEditIsKept() {
        var world = DocumentWorld(devices: ["A", "B"])
        world.run()
        world.save(0, Self.note, "v1\n", write: 1)
        world.run()
        world.setOnline(1, false)
        world.save(1, Self.note, "mine\n", write: 1)
        world.save(0, Self.note, "theirs\n", write: 2)
        world.run()
        world.setOnline(1, true)
        // B's fetch goes first and brings A's newer version; B's upload has not been answered yet.
        var inOrder: SeededRandom? = nil
        world.step(&inOrder)
        world.step(&inOrder)
        #expect(world.engines[1]?.cloudState(path: Self.note)?.current.id == world.write(0, 2))
        #expect(world.localText(1, Self.note) == "mine\n")
        #expect(!world.visibles(1).contains { $0.2 == world.write(0, 2) })
        world.run()
        #expect(world.conflictDetectedCount == 1)
        Self.expectConverged(world)
    }

    @Test("lastWriterWins keeps the current version and removes the offline edit: the seed-004 loss")
    func lastWriterWinsLosesTheOfflineEdit() {
        var world = Self.airplaneWorld(.lastWriterWins)
        #expect(world.conflictDetectedCount == 1)
        #expect(world.cloudText(Self.note) == "v1\nB online\n")
        #expect(world.service.survivingWrites(account: DocumentWorld.account).isEmpty)
        world.nowMicroseconds = 70_000_000
        world.save(0, Self.note, "v1\nA offline\nA again\n", write: 3)
        world.run()
        #expect(world.cloudText(Self.note) == "v1\nA offline\nA again\n")
        Self.expectConverged(world)
        let shown = world.observations.filter { if case .conflictShown = $0.1 { return true } else { return false } }
        #expect(shown.count == 2)
        #expect(world.notifications.contains { $0.1.reason == "inConflict" })
    }

    @Test("keepVersions leaves the conflict open with the offline edit kept as a conflict version")
    func keepVersionsKeepsTheConflict() {
        var world = Self.airplaneWorld(.keepVersions)
        world.nowMicroseconds = 70_000_000
        world.save(0, Self.note, "v1\nA offline\nA again\n", write: 3)
        world.run()
        #expect(world.cloudText(Self.note) == "v1\nA offline\nA again\n")
        #expect(world.service.survivingWrites(account: DocumentWorld.account) == [world.write(0, 2)])
        #expect(world.engines[1]?.cloudState(path: Self.note)?.inConflict == true)
        #expect(world.conflictDetectedCount == 1)
        Self.expectConverged(world)
    }

    @Test("the policy is the built-in app's: an engine with no app keeps the versions whatever its policy says")
    func policiesAreApps() {
        for policy in [DocumentConflictPolicy.keepBoth, .merge, .lastWriterWins] {
            let world = Self.airplaneWorld(policy, withoutApps: true)
            #expect(world.engines[1]?.cloudState(path: Self.note)?.inConflict == true, "\(policy)")
            #expect(world.cloudText("note (conflict A 1).txt") == nil, "\(policy)")
            #expect(world.service.survivingWrites(account: DocumentWorld.account) == [world.write(0, 2)], "\(policy)")
        }
    }

    @Test("keepBoth saves the losing version as a conflict copy named after its author, then resolves")
    func keepBothSavesACopy() {
        let world = Self.airplaneWorld(.keepBoth)
        #expect(world.cloudText("note (conflict A 1).txt") == "v1\nA offline\n")
        #expect(world.cloudText(Self.note) == "v1\nB online\n")
        #expect(world.service.survivingWrites(account: DocumentWorld.account).isEmpty)
        let derived = world.observations.compactMap { entry -> [WriteID]? in
            guard case .derivedWrite(_, let item, _, let parents, _) = entry.1, item.name == "note (conflict A 1).txt" else { return nil }
            return parents
        }
        #expect(derived.allSatisfy { $0 == [world.write(0, 2)] })
        #expect(!derived.isEmpty)
        #expect(world.conflictDetectedCount == 1)
        Self.expectConverged(world)
    }

    @Test("merge resolves with a diff3 of both versions against v1, listing both as parents")
    func mergeResolves() {
        var world = Self.airplaneWorld(.merge)
        #expect(world.cloudText(Self.note) == "v1\n<<<<<<< B\nB online\n=======\nA offline\n>>>>>>> A\n")
        #expect(world.service.survivingWrites(account: DocumentWorld.account).isEmpty)
        let parents = world.observations.compactMap { entry -> [WriteID]? in
            guard case .derivedWrite(_, _, _, let parents, _) = entry.1 else { return nil }
            return parents
        }
        #expect(!parents.isEmpty)
        #expect(parents.allSatisfy { Set($0) == [world.write(1, 1), world.write(0, 2)] })
        Self.expectConverged(world)
        world.nowMicroseconds = 70_000_000
        world.save(0, Self.note, "v1\nA offline\nA again\n", write: 3)
        world.run()
        #expect(world.cloudText(Self.note) == "v1\nA offline\nA again\n")
        #expect(world.conflictDetectedCount == 1)
        Self.expectConverged(world)
    }

    @Test("devices resolving the same conflict at once converge with no new conflict", arguments: [
        DocumentConflictPolicy.merge, .keepBoth, .lastWriterWins,
    ], Array(UInt64(1)...12))
    func concurrentResolutionsConverge(policy: DocumentConflictPolicy, seed: UInt64) {
        let world = Self.airplaneWorld(policy, seed: seed)
        #expect(world.conflictDetectedCount == 1)
        #expect(world.service.survivingWrites(account: DocumentWorld.account).isEmpty)
        #expect(world.isQuiet)
        Self.expectConverged(world)
    }

    @Test("conflict copy names: NAME (conflict DEVICE N).EXT, extension after the last dot of the file name")
    func conflictCopyNames() {
        #expect(DocumentEngine.conflictCopyPath("note.txt", authorName: "A", ordinal: 1) == "note (conflict A 1).txt")
        #expect(DocumentEngine.conflictCopyPath("Makefile", authorName: "iPhone", ordinal: 2) == "Makefile (conflict iPhone 2)")
        #expect(DocumentEngine.conflictCopyPath("archive.tar.gz", authorName: "B", ordinal: 1) == "archive.tar (conflict B 1).gz")
        #expect(DocumentEngine.conflictCopyPath("v1.2/notes", authorName: "B", ordinal: 3) == "v1.2/notes (conflict B 3)")
    }

    @Test("a copy goes beside its document whatever the device is called: a / in the device's name is written : (session 15, spec32)")
    func conflictCopyNamesKeepTheFolder() {
        // Before: "Work/iPad" put the copy in a folder "note (conflict Work", and "a//b" made a
        // path with an empty name, which a scenario's expect.final could not even name.
        #expect(DocumentEngine.conflictCopyPath("d/note.txt", authorName: "Work/iPad", ordinal: 1) == "d/note (conflict Work:iPad 1).txt")
        #expect(DocumentEngine.conflictCopyPath("note.txt", authorName: "a//b", ordinal: 2) == "note (conflict a::b 2).txt")
    }

    @Test("three versions merge pairwise in modification-date order with the current version first")
    func threeWayMergeOrder() {
        func version(_ device: Int, _ text: String, at seconds: Int64, parents: [WriteID]) -> DocumentVersion {
            DocumentVersion(id: WriteID(device: DeviceID(index: device), sequence: 2), parents: parents, modifiedAt: LocalInstant(microseconds: seconds * 1_000_000),
                            author: DeviceID(index: device), authorName: ["A", "B", "C"][device], body: .content(.text(text)))
        }
        let root = DocumentVersion(id: WriteID(device: DeviceID(0), sequence: 1), parents: [], modifiedAt: LocalInstant(microseconds: 0),
                                   author: DeviceID(0), authorName: "A", body: .content(.text("1\n2\n3\n")))
        let current = version(2, "1\n2\n3\nC\n", at: 30, parents: [root.id])
        let early = version(0, "A\n1\n2\n3\n", at: 10, parents: [root.id])
        let middle = version(1, "1\nB\n3\n", at: 20, parents: [root.id])
        let state = DocumentState(path: "n", current: current, conflicts: [DocumentConflict(version: middle, ordinal: 1), DocumentConflict(version: early, ordinal: 1)], ancestry: [root])
        #expect(DocumentEngine.mergedContent(state) == .text("A\n1\nB\n3\nC\n"))
    }

    @Test("signing into another account discards pending edits and clears what the app shows")
    func accountSwitchDiscards() {
        var world = DocumentWorld(devices: ["A"], accountCount: 2)
        world.run()
        world.setOnline(0, false)
        world.save(0, Self.note, "mine\n", write: 1)
        world.accounts[0] = AccountID(1)
        world.deliver(.signedIn(AccountID(1)), to: 0)
        let discarded = world.observations.filter { if case .discarded = $0.1 { return true } else { return false } }
        #expect(discarded.count == 1)
        #expect(world.visibles(0).last.map { $0.1 == .absent && $0.3 == .reset } == true)
        #expect(world.view(0).isEmpty)
        #expect(world.engines[0]?.pendingWrites().isEmpty == true)
    }
}
