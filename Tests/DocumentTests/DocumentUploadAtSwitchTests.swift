import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// An upload on the wire when another account signs in: the old account's cloud decides it.
@Suite("Documents: an upload on the wire at an account switch")
struct DocumentUploadAtSwitchTests {
    static let note = "note.txt"

    /// A saves write 1 (its upload goes out, not yet delivered) and write 2 (waits behind it),
    /// then signs into account 1.
    static func switchedWithUploadOnTheWire() -> DocumentWorld {
        var world = DocumentWorld(devices: ["A"], accountCount: 2)
        world.run()
        world.save(0, note, "one\n", write: 1)
        world.save(0, note, "one\ntwo\n", write: 2)
        world.accounts[0] = AccountID(1)
        world.deliver(.signedIn(AccountID(1)), to: 0)
        return world
    }

    static func discards(_ world: DocumentWorld) -> [(WriteID, String)] {
        world.observations.compactMap {
            if case .discarded(let write, _, let reason) = $0.1 { return (write, reason) } else { return nil }
        }
    }

    @Test("the version on the wire is not reported at the switch, and not at all once the old account accepts it")
    func acceptedUploadIsNotDiscarded() {
        var world = Self.switchedWithUploadOnTheWire()
        #expect(Self.discards(world).map(\.0) == [world.write(0, 2)])
        world.run()
        #expect(Self.discards(world).map(\.0) == [world.write(0, 2)])
        #expect(world.cloudText(Self.note) == "one\n")
        #expect(world.view(0).isEmpty)
        #expect(world.engines[0]?.isQuiescent == true)
    }

    @Test("a failed upload reports the version on the wire discarded, saying why")
    func failedUploadIsDiscarded() throws {
        var world = Self.switchedWithUploadOnTheWire()
        let index = try #require(world.queue.firstIndex { if case .request = $0 { return true } else { return false } })
        guard case .request(let request) = world.queue.remove(at: index) else { return }
        world.queue.append(.response(ResponseEnvelope(requestID: request.requestID, device: request.device, store: .documents,
                                                      result: .failed(.networkFailure))))
        world.run()
        let last = try #require(Self.discards(world).last)
        #expect(last.0 == world.write(0, 1))
        #expect(last.1 == "discarded at account switch (its upload failed)")
    }

    @Test("a crash before the answer still reports the version on the wire, once")
    func crashBeforeTheAnswerReportsIt() throws {
        var world = Self.switchedWithUploadOnTheWire()
        world.crashAndRestart(0)
        world.run()
        #expect(Self.discards(world).map(\.0) == [world.write(0, 2), world.write(0, 1)])
        #expect(Self.discards(world).last?.1 == "discarded at account switch (its upload's answer was lost in a crash)")
        world.crashAndRestart(0)
        world.run()
        #expect(Self.discards(world).count == 2)
    }
}
