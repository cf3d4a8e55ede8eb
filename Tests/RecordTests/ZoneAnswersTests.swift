import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabCloud

/// A zone keeps its last few fetch answers while it does not change (`ZoneAnswers`): a fetch
/// from a sequence already answered is not collected again, and any change drops them, so an
/// answer is always the zone's changes as they are now.
@Suite("Zone answers")
struct ZoneAnswersTests {
    static let at = LocalInstant(microseconds: 0)

    static func entry(_ name: String, tag: UInt64, sequence: UInt64) -> CloudRecordZone.Entry {
        let write = WriteID(device: DeviceID(0), sequence: UInt32(tag))
        let record = ServerRecord(id: RecordID(zone: "Z", name: name), type: "T", fields: [:], changeTag: tag, existenceWrite: write,
                                  createdAt: at, modifiedAt: at, creatorDevice: DeviceID(0), creatorAccount: AccountID(0),
                                  lastModifierDevice: DeviceID(0))
        return CloudRecordZone.Entry(record: record, sequence: sequence, chargedBytes: 0, history: [])
    }

    static func names(_ changes: (changed: [ServerRecord], deleted: [(name: String, tombstone: CloudRecordZone.Tombstone)])) -> [String] {
        changes.changed.map { "\($0.id.name)@\($0.changeTag)" } + changes.deleted.map { "-\($0.name)" }
    }

    @Test("fetches from a sequence already answered are not collected again")
    func repeatedFetchesCollectOnce() {
        var zone = CloudRecordZone(incarnation: 1, sequence: 0)
        zone.store("a", Self.entry("a", tag: 1, sequence: 1))
        zone.store("b", Self.entry("b", tag: 2, sequence: 2))
        for _ in 0..<100 { #expect(Self.names(zone.changes(since: 1)) == ["b@2"]) }
        #expect(zone.answers.collected == 1, "a hundred fetches from one sequence collect one answer")
        for _ in 0..<10 {
            #expect(Self.names(zone.changes(since: 0)) == ["a@1", "b@2"])
            #expect(Self.names(zone.changes(since: 2)) == [])
        }
        #expect(zone.answers.collected == 3)
    }

    @Test("a change drops every kept answer")
    func changesDropAnswers() {
        var zone = CloudRecordZone(incarnation: 1, sequence: 0)
        zone.store("a", Self.entry("a", tag: 1, sequence: 1))
        #expect(Self.names(zone.changes(since: 0)) == ["a@1"])
        zone.store("a", Self.entry("a", tag: 5, sequence: 2))
        #expect(Self.names(zone.changes(since: 0)) == ["a@5"])
        #expect(Self.names(zone.changes(since: 1)) == ["a@5"])
        _ = zone.bury("a", CloudRecordZone.Tombstone(write: WriteID(device: DeviceID(1), sequence: 1), sequence: 3))
        #expect(Self.names(zone.changes(since: 0)) == ["-a"])
        #expect(Self.names(zone.changes(since: 1)) == ["-a"])
        #expect(zone.answers.collected == 5)
    }

    @Test("at most `capacity` answers are kept, the oldest replaced first")
    func oldestAnswerReplaced() {
        var zone = CloudRecordZone(incarnation: 1, sequence: 0)
        for sequence in 1...UInt64(ZoneAnswers.capacity + 1) { zone.store("r\(sequence)", Self.entry("r\(sequence)", tag: sequence, sequence: sequence)) }
        for since in 0...UInt64(ZoneAnswers.capacity) { _ = zone.changes(since: since) }
        #expect(zone.answers.collected == ZoneAnswers.capacity + 1)
        // The first answer (since 0) was replaced; the others are kept.
        for since in 1...UInt64(ZoneAnswers.capacity) { _ = zone.changes(since: since) }
        #expect(zone.answers.collected == ZoneAnswers.capacity + 1)
        #expect(Self.names(zone.changes(since: 0)).count == ZoneAnswers.capacity + 1)
        #expect(zone.answers.collected == ZoneAnswers.capacity + 2)
    }

    @Test("kept answers are not part of the zone's value")
    func answersAreNotCompared() {
        var fetched = CloudRecordZone(incarnation: 1, sequence: 0)
        fetched.store("a", Self.entry("a", tag: 1, sequence: 1))
        let unfetched = fetched
        _ = fetched.changes(since: 0)
        #expect(fetched == unfetched)
        #expect(fetched.hashValue == unfetched.hashValue)
    }
}
