import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// Drives the DocumentService directly: requests in, actions out.
struct ServiceHarness {
    var service: DocumentService
    var storage: StorageLedger
    var arrival: UInt64 = 0
    var nextRequestID: UInt64 = 0
    var observations: [Observation] = []
    var pushes = 0

    init(winner: DocumentWinner = .modificationDate, storageBytes: Int64 = 1_000_000) {
        let settings = EngineSettings(documents: DocumentSettings(conflict: .keepVersions, winner: winner))
        service = DocumentService(configuration: CloudConfiguration(accountCount: 1, limits: Limits(storageBytes: storageBytes), settings: settings, environment: .development))
        storage = StorageLedger(accountCount: 1, quotaBytes: storageBytes)
    }

    static func version(_ device: Int, _ sequence: UInt32, _ text: String?, parents: [WriteID] = [], at seconds: Int64, derived: Bool = false) -> DocumentVersion {
        DocumentVersion(id: WriteID(device: DeviceID(index: device), sequence: sequence, derived: derived), parents: parents,
                        modifiedAt: LocalInstant(microseconds: seconds * 1_000_000), author: DeviceID(index: device),
                        authorName: ["A", "B", "C"][device], body: text.map { .content(.text($0)) } ?? .deleted)
    }

    mutating func send(_ body: DocumentRequest, from device: Int = 0) -> DocumentResponse? {
        arrival += 1; nextRequestID += 1
        var context = CloudContext(now: LocalInstant(microseconds: Int64(arrival) * 1_000_000), arrival: arrival)
        let request = RequestEnvelope(requestID: nextRequestID, device: DeviceID(index: device), account: AccountID(0), body: .documents(body))
        service.handle(request, body, &context, storage: &storage)
        var response: DocumentResponse?
        for action in context.actions {
            switch action {
            case .respond(let envelope):
                if case .ok(.documents(let body)) = envelope.result { response = body }
            case .observe(let observation): observations.append(observation)
            case .pushAccount, .push: pushes += 1
            case .log, .logFields: break
            }
        }
        return response
    }

    mutating func upload(_ version: DocumentVersion, base: WriteID?, path: String = "note.txt", chain: [DocumentVersion] = [],
                         resolution: DocumentResolution? = nil, from device: Int? = nil) -> DocumentUploadOutcome? {
        let response = send(.upload(DocumentUpload(path: path, version: version, chain: chain, base: base, resolution: resolution)),
                            from: device ?? Int(version.author.index))
        guard case .uploaded(_, let outcome, _)? = response else { return nil }
        return outcome
    }

    var conflictsDetected: Int { observations.filter { if case .conflictDetected = $0 { return true } else { return false } }.count }
    var lastWriterWins: [(WriteID, WriteID)] {
        observations.compactMap { if case .lastWriterWins(_, let chosen, let over, _) = $0 { return (chosen, over) } else { return nil } }
    }
    func state(_ path: String = "note.txt") -> DocumentState? { service.state(account: AccountID(0), path: path) }
}

@Suite("Documents cloud service")
struct DocumentServiceTests {
    typealias H = ServiceHarness
    let a1 = H.version(0, 1, "v1\n", at: 0)

    @Test("an upload based on the current version becomes current")
    func baseIsCurrent() {
        var cloud = H()
        #expect(cloud.upload(a1, base: nil) == .accepted)
        let a2 = H.version(0, 2, "v2\n", parents: [a1.id], at: 5)
        #expect(cloud.upload(a2, base: a1.id) == .accepted)
        #expect(cloud.state()?.current.id == a2.id)
        #expect(cloud.state()?.inConflict == false)
        #expect(cloud.conflictsDetected == 0)
        #expect(cloud.service.finalView(account: AccountID(0)).map(\.write) == [a2.id])
        #expect(cloud.storage.used(by: AccountID(0)) == 3)
    }

    @Test("a stale base is a conflict: the later modification date is current, the other a conflict version")
    func staleBaseByModificationDate() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let b3 = H.version(1, 3, "v1\nB online\n", parents: [a1.id], at: 28)
        #expect(cloud.upload(b3, base: a1.id) == .accepted)
        // A edited offline at local 20 s and arrives later: it loses on modification date.
        let a2 = H.version(0, 2, "v1\nA offline\n", parents: [a1.id], at: 20)
        #expect(cloud.upload(a2, base: a1.id) == .conflictLost)
        #expect(cloud.state()?.current.id == b3.id)
        #expect(cloud.state()?.conflicts.map(\.version.id) == [a2.id])
        #expect(cloud.state()?.conflicts.first?.ordinal == 1)
        #expect(cloud.conflictsDetected == 1)
        #expect(cloud.lastWriterWins.map(\.0) == [b3.id])
        #expect(cloud.lastWriterWins.map(\.1) == [a2.id])
        #expect(cloud.service.survivingWrites(account: AccountID(0)) == [a2.id])
        // The common ancestor travels with its content so devices can merge.
        #expect(cloud.state()?.ancestry.map(\.id) == [a1.id])
        #expect(cloud.state()?.ancestry.first?.body == .content(.text("v1\n")))
    }

    @Test("with winner arrival the newer arrival is current whatever its date")
    func staleBaseByArrival() {
        var cloud = H(winner: .arrival)
        _ = cloud.upload(a1, base: nil)
        _ = cloud.upload(H.version(1, 3, "B\n", parents: [a1.id], at: 28), base: a1.id)
        let a2 = H.version(0, 2, "A\n", parents: [a1.id], at: 20)
        #expect(cloud.upload(a2, base: a1.id) == .conflictWon)
        #expect(cloud.state()?.current.id == a2.id)
        #expect(cloud.lastWriterWins.first?.0 == a2.id)
    }

    @Test("concurrent versions with identical content are no conflict")
    func identicalContent() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let b2 = H.version(1, 2, "same\n", parents: [a1.id], at: 10)
        _ = cloud.upload(b2, base: a1.id)
        #expect(cloud.upload(H.version(0, 2, "same\n", parents: [a1.id], at: 11), base: a1.id) == .identical)
        #expect(cloud.state()?.current.id == b2.id)
        #expect(cloud.conflictsDetected == 0)
    }

    @Test("re-uploading a version the cloud already has is acknowledged without a new conflict")
    func idempotentReupload() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        _ = cloud.upload(H.version(1, 3, "B\n", parents: [a1.id], at: 28), base: a1.id)
        let a2 = H.version(0, 2, "A\n", parents: [a1.id], at: 20)
        #expect(cloud.upload(a2, base: a1.id) == .conflictLost)
        #expect(cloud.upload(a2, base: a1.id) == .alreadyApplied)
        #expect(cloud.upload(a1, base: nil) == .alreadyApplied)
        #expect(cloud.conflictsDetected == 1)
        #expect(cloud.state()?.conflicts.count == 1)
    }

    @Test("a later local version whose folded chain reaches the current version is no conflict")
    func foldedChainAfterLostReply() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let a2 = H.version(0, 2, "2\n", parents: [a1.id], at: 2)
        #expect(cloud.upload(a2, base: a1.id) == .accepted)
        // The reply to a2 was lost: the device still thinks its base is a1 and folds a2 into a3.
        let a3 = H.version(0, 3, "3\n", parents: [a2.id], at: 3)
        #expect(cloud.upload(a3, base: a1.id, chain: [a2.stub]) == .accepted)
        #expect(cloud.conflictsDetected == 0)
    }

    @Test("an upload past the storage quota fails and changes nothing")
    func quotaExceeded() {
        var cloud = H(storageBytes: 10)
        let big = H.version(0, 1, "0123456789A", at: 1)
        #expect(cloud.upload(big, base: nil) == .quotaExceeded)
        #expect(cloud.state() == nil)
        #expect(cloud.storage.used(by: AccountID(0)) == 0)
        #expect(cloud.upload(H.version(0, 2, "01234", at: 2), base: nil, path: "small.txt") == .accepted)
        #expect(cloud.upload(H.version(1, 1, "012345", at: 3), base: nil, path: "other.txt") == .quotaExceeded)
        // Deleting frees the space.
        let gone = H.version(0, 3, nil, parents: [WriteID(device: DeviceID(0), sequence: 2)], at: 4)
        #expect(cloud.upload(gone, base: WriteID(device: DeviceID(0), sequence: 2), path: "small.txt") == .accepted)
        #expect(cloud.storage.used(by: AccountID(0)) == 0)
        #expect(cloud.upload(H.version(1, 1, "012345", at: 3), base: nil, path: "other.txt") == .accepted)
    }

    @Test("an edit concurrent with a delete restores the document and reports the delete in the conflict")
    func editAfterDeleteRestores() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let deletion = H.version(0, 2, nil, parents: [a1.id], at: 20)
        #expect(cloud.upload(deletion, base: a1.id) == .accepted)
        #expect(cloud.service.finalView(account: AccountID(0)).isEmpty)
        let edit = H.version(1, 1, "v1\neggs\n", parents: [a1.id], at: 15)
        #expect(cloud.upload(edit, base: a1.id) == .restored)
        #expect(cloud.state()?.current.id == edit.id)
        #expect(cloud.conflictsDetected == 1)
        guard case .conflictDetected(_, let writes, let detail)? = cloud.observations.first else { Issue.record("no conflict"); return }
        #expect(writes == [edit.id, deletion.id])
        #expect(detail.contains("deleted"))
    }

    @Test("a delete concurrent with an edit loses: the edit stays and the conflict names the delete")
    func deleteAfterEditLoses() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let edit = H.version(1, 1, "v1\nmore\n", parents: [a1.id], at: 15)
        _ = cloud.upload(edit, base: a1.id)
        let deletion = H.version(0, 2, nil, parents: [a1.id], at: 20)
        #expect(cloud.upload(deletion, base: a1.id) == .deleteLost)
        #expect(cloud.state()?.current.id == edit.id)
        #expect(cloud.conflictsDetected == 1)
        #expect(cloud.upload(deletion, base: a1.id) == .alreadyApplied)
        #expect(cloud.conflictsDetected == 1)
    }

    @Test("deleting a document already deleted is a no-op")
    func doubleDelete() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        _ = cloud.upload(H.version(0, 2, nil, parents: [a1.id], at: 2), base: a1.id)
        #expect(cloud.upload(H.version(1, 1, nil, parents: [a1.id], at: 3), base: a1.id) == .alreadyDeleted)
        #expect(cloud.conflictsDetected == 0)
    }

    @Test("the first resolution of a conflict applies and a repeat is ignored")
    func resolutionAppliesOnce() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let b3 = H.version(1, 3, "B\n", parents: [a1.id], at: 28)
        _ = cloud.upload(b3, base: a1.id)
        let a2 = H.version(0, 2, "A\n", parents: [a1.id], at: 20)
        _ = cloud.upload(a2, base: a1.id)
        let mergeA = H.version(0, 1, "AB\n", parents: [b3.id, a2.id], at: 30, derived: true)
        let mergeB = H.version(1, 1, "AB\n", parents: [b3.id, a2.id], at: 31, derived: true)
        #expect(cloud.upload(mergeA, base: b3.id, resolution: DocumentResolution(merged: mergeA.id, resolves: [a2.id])) == .accepted)
        #expect(cloud.state()?.inConflict == false)
        #expect(cloud.upload(mergeB, base: b3.id, resolution: DocumentResolution(merged: mergeB.id, resolves: [a2.id])) == .repeatResolution)
        #expect(cloud.state()?.current.id == mergeA.id)
        #expect(cloud.conflictsDetected == 1)
        // A resolve request for versions already resolved is ignored too.
        guard case .resolved(_, let applied, _)? = cloud.send(.resolve(path: "note.txt", resolves: [a2.id])) else { Issue.record("no reply"); return }
        #expect(applied == false)
    }

    @Test("a resolve request removes the conflict versions and frees their storage")
    func resolveRemovesVersions() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        _ = cloud.upload(H.version(1, 3, "B\n", parents: [a1.id], at: 28), base: a1.id)
        let a2 = H.version(0, 2, "AAAA\n", parents: [a1.id], at: 20)
        _ = cloud.upload(a2, base: a1.id)
        #expect(cloud.storage.used(by: AccountID(0)) == 2 + 5)
        guard case .resolved(_, let applied, let state)? = cloud.send(.resolve(path: "note.txt", resolves: [a2.id])) else { Issue.record("no reply"); return }
        #expect(applied)
        #expect(state?.inConflict == false)
        #expect(cloud.storage.used(by: AccountID(0)) == 2)
        #expect(cloud.service.survivingWrites(account: AccountID(0)).isEmpty)
    }

    @Test("a fetch lists documents changed since its cursor, sorted by path")
    func fetchSinceCursor() {
        var cloud = H()
        _ = cloud.upload(H.version(0, 1, "b", at: 1), base: nil, path: "b.txt")
        _ = cloud.upload(H.version(0, 2, "a", at: 2), base: nil, path: "a.txt")
        guard case .changes(let all, let cursor)? = cloud.send(.fetch(since: 0)) else { Issue.record("no reply"); return }
        #expect(all.map(\.path) == ["a.txt", "b.txt"])
        _ = cloud.upload(H.version(0, 3, "b2", parents: [WriteID(device: DeviceID(0), sequence: 1)], at: 3), base: WriteID(device: DeviceID(0), sequence: 1), path: "b.txt")
        guard case .changes(let later, _)? = cloud.send(.fetch(since: cursor)) else { Issue.record("no reply"); return }
        #expect(later.map(\.path) == ["b.txt"])
    }

    @Test("a fetch naming the version a device holds gets that document's state without its content")
    func fetchLeavesOutHeldContent() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        _ = cloud.upload(H.version(0, 2, "b", at: 2), base: nil, path: "b.txt")
        let held = ["note.txt": HeldVersions(current: a1.id), "b.txt": HeldVersions(current: WriteID(device: DeviceID(0), sequence: 9))]
        guard case .changes(let states, _)? = cloud.send(.fetch(since: 0, held: held)) else { Issue.record("no reply"); return }
        #expect(states.map(\.path) == ["b.txt", "note.txt"])
        #expect(states.map(\.current.id) == [WriteID(device: DeviceID(0), sequence: 2), a1.id])
        #expect(states.map(\.current.body) == [.content(.text("b")), .unavailable])
        #expect(DocumentResponse.changes(states: states, cursor: 2).transferBytes == 1)
        guard case .changes(let everything, _)? = cloud.send(.fetch(since: 0)) else { Issue.record("no reply"); return }
        #expect(everything.last?.current.body == .content(.text("v1\n")))
    }

    @Test("a fetch naming a conflict version the device holds (its own unacknowledged upload) gets it without content")
    func fetchLeavesOutHeldConflictVersion() {
        var cloud = H()
        _ = cloud.upload(a1, base: nil)
        let b3 = H.version(1, 3, "v1\nB online\n", parents: [a1.id], at: 28)
        _ = cloud.upload(b3, base: a1.id)
        let a2 = H.version(0, 2, "v1\nA offline\n", parents: [a1.id], at: 20)
        #expect(cloud.upload(a2, base: a1.id) == .conflictLost)
        // A lost that answer: it still holds a1 (its last word from the cloud) and a2 (pending).
        guard case .changes(let states, _)? = cloud.send(.fetch(since: 0, held: ["note.txt": HeldVersions(current: a1.id, own: [a2.id])])) else { Issue.record("no reply"); return }
        #expect(states.first?.current.body == .content(.text("v1\nB online\n")))
        #expect(states.first?.conflicts.map(\.version.body) == [.unavailable])
        guard case .changes(let unheld, _)? = cloud.send(.fetch(since: 0)) else { Issue.record("no reply"); return }
        #expect(unheld.first?.conflicts.map(\.version.body) == [.content(.text("v1\nA offline\n"))])
    }
}
