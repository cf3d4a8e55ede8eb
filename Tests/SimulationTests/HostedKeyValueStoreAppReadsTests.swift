import Testing
import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// The adapter reuses its list of reads from one notification to the next (docs/LIBRARY.md
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
