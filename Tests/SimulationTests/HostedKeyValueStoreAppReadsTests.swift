import Testing
import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// The adapter reuses its list of reads from one notification to the next (docs/HOSTING.md
/// "What hosting costs"): neither an answer the platform still holds nor a store the app kept may
/// see the next notification's reads.
@Suite struct HostedKeyValueStoreAppReadsTests {
    /// Reads every changed key through this notification's store, and "b" through the first one it kept.
    final class KeepingObserver: KeyValueStoreApp {
        var kept: KeyValueStore?
        var keptReads: [ScenarioValue?] = []

        func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
            for key in change.changedKeys { _ = store.object(forKey: key) }
            if let kept { keptReads.append(kept.object(forKey: "b")) } else { kept = store }
        }
    }

    static func snapshot() -> KVSAppSnapshot {
        func local(_ text: String, _ sequence: UInt32) -> KVSEngine.LocalValue {
            .init(value: .string(text), write: WriteID(device: DeviceID(1), sequence: sequence), timestamp: LocalInstant(microseconds: 0))
        }
        return KVSAppSnapshot(values: ["a": local("A", 1), "b": local("B", 2)])
    }

    @Test("each answer lists only its own notification's reads, an answer still held is not changed by the next, and a kept store's reads are not noted")
    func readsPerNotification() {
        let observer = KeepingObserver()
        var hosted = HostedKeyValueStoreApp(app: observer)
        let first = hosted.handle(.changedExternally(reason: "serverChange", keys: ["a"]), values: Self.snapshot())
        let second = hosted.handle(.changedExternally(reason: "serverChange", keys: ["a", "b"]), values: Self.snapshot())
        let third = hosted.handle(.changedExternally(reason: "serverChange", keys: []), values: Self.snapshot())
        #expect(first.reads.map(\.key) == ["a"])
        #expect(first.reads.map(\.write.sequence) == [1])
        #expect(second.reads.map(\.key) == ["a", "b"])
        #expect(third.reads.isEmpty)
        // The kept store still reads the store it was given.
        #expect(observer.keptReads == [.string("B"), .string("B")])
    }

    @Test("the platform's path appends each value read once to the platform's buffer, after the notes already there, for the device told; a kept store's later reads are noted nowhere")
    func readsNotedStraightIntoThePlatformsBuffer() {
        let observer = KeepingObserver()
        var hosted = HostedKeyValueStoreApp(app: observer)
        let made = KVSAppNote(key: "z", write: WriteID(device: DeviceID(0), sequence: 9), madeHere: true)
        var notes = [KVSAppPendingNote(device: 5, note: made)]
        let first = hosted.handle(.changedExternally(reason: "serverChange", keys: ["a", "a", "b"]), values: Self.snapshot(),
                                  device: 3, notingReadsIn: &notes)
        // The kept store reads "b" here too: its read is not the platform's.
        let second = hosted.handle(.changedExternally(reason: "serverChange", keys: ["b"]), values: Self.snapshot(),
                                   device: 4, notingReadsIn: &notes)
        #expect(first.isEmpty && second.isEmpty)
        #expect(notes.map(\.device) == [5, 3, 3, 4])
        #expect(notes.map(\.note.key) == ["z", "a", "b", "b"])
        #expect(notes.map(\.note.write.sequence) == [9, 1, 2, 2])
        #expect(notes.map(\.note.madeHere) == [true, false, false, false])
        #expect(observer.keptReads == [.string("B")])
    }

    @Test("two keys one write made (one store call of several keys) are each noted, a key read again once")
    func keysOfOneWriteAreNotedApart() {
        let write = WriteID(device: DeviceID(1), sequence: 3)
        let local = KVSEngine.LocalValue(value: .integer(1), write: write, timestamp: LocalInstant(microseconds: 0))
        var hosted = HostedKeyValueStoreApp(app: KeepingObserver())
        var notes: [KVSAppPendingNote] = []
        _ = hosted.handle(.changedExternally(reason: "serverChange", keys: ["a", "b", "a", "b"]),
                          values: KVSAppSnapshot(values: ["a": local, "b": local]), device: 0, notingReadsIn: &notes)
        #expect(notes.map(\.note.key) == ["a", "b"])
        #expect(notes.map(\.note.write) == [write, write])
    }

    @Test("an answer's public reads and the platform's list of them are the same values, set either way")
    func publicReadsMatchThePlatformsList() {
        let one = WriteID(device: DeviceID(1), sequence: 1), two = WriteID(device: DeviceID(2), sequence: 7)
        var answer = KVSAppAnswer(reads: [(key: "a", write: one)])
        #expect(answer.readList.map(\.key) == ["a"])
        #expect(answer.readList.map(\.write) == [one])
        answer.reads.append((key: "b", write: two))
        #expect(answer.readList.map(\.key) == ["a", "b"])
        #expect(answer.reads.map(\.write) == [one, two])
        let listed = KVSAppAnswer(commands: [], readList: [KVSAppRead(key: "c", write: two)])
        #expect(listed.reads.map(\.key) == ["c"])
        #expect(listed.reads.map(\.write) == [two])
    }
}
