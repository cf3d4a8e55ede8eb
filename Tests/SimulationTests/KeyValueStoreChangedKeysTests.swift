import Testing
@testable import SyncLabApps
@testable import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// `KeyValueStore.object(forKey:)` told how many keys changed (docs/LIBRARY.md "What hosting
/// costs", eleventh round): the count is a hint for where the keys lie among those just applied;
/// reads in the notification's order, out of it, of other keys, or with a wrong count all read
/// what the store holds and note the same.
@Suite struct KeyValueStoreChangedKeysTests {
    static func store() -> KVSEngine.LocalStore {
        var store = KVSEngine.LocalStore()
        for (number, key) in ["a", "b", "c", "d", "e"].enumerated() {
            _ = store.apply(KVSChange(number: UInt32(4 - number), state: KVSKeyState(key: key, value: .integer(Int64(number)),
                                      write: WriteID(device: DeviceID(1), sequence: UInt32(number + 1)), timestamp: LocalInstant(microseconds: 0))))
        }
        return store
    }

    @Test("reads give the store's values and notes whatever the count says", arguments: [
        (0, ["c", "d", "e"]), (3, ["c", "d", "e"]), (3, ["e", "d", "c"]), (3, ["d", "e"]), (9, ["c", "d", "e"]),
        (2, ["a", "zz", "d", "e", "a"]), (5, ["a", "b", "c", "d", "e"]),
    ])
    func readsAreRightWithAnyCount(changedKeys: Int, keys: [String]) {
        let values = ["a": ScenarioValue.integer(0), "b": .integer(1), "c": .integer(2), "d": .integer(3), "e": .integer(4)]
        let reader = KeyValueStore(snapshot: KVSAppSnapshot(values: Self.store()), device: 2, changedKeys: changedKeys)
        for key in keys { #expect(reader.object(forKey: key) == values[key], "\(key)") }
        var unique: [String] = []
        for key in keys where values[key] != nil && !unique.contains(key) { unique.append(key) }
        #expect(reader.takeNotes().map(\.note.key) == unique, "each key noted once, in the order read")
    }
}
