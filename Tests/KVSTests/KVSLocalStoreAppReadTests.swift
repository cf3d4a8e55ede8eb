import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `LocalStore.appState(forKey:)`, a hosted app's read (docs/HOSTING.md "What hosting costs"):
/// it finds what the subscript finds, however the key is placed.
@Suite struct KVSLocalStoreAppReadTests {
    typealias T = KVSTest

    func change(_ key: String, number: UInt32, _ value: PlistValue?, sequence: UInt32) -> KVSChange {
        KVSChange(number: number, state: KVSKeyState(key: key, value: value, write: T.write(1, sequence), timestamp: T.at(Int64(sequence))))
    }

    @Test("the app's read gives the subscript's state for recent, older and loose keys, tombstones and removed or unknown keys")
    func appStateMatchesSubscript() {
        var store = KVSEngine.LocalStore()
        #expect(store.appState(forKey: "a") == nil, "an empty store has no storage")
        for (sequence, key) in ["a", "b", "c", "d", "f"].enumerated() {
            _ = store.apply(change(key, number: UInt32(sequence), key == "f" ? nil : .integer(Int64(sequence)), sequence: UInt32(sequence + 1)))
        }
        // "e" written here, never fetched: loose; "b" removed from the store.
        store["e"] = KVSEngine.LocalValue(value: .string("own"), write: T.write(0, 1), timestamp: T.at(9))
        store["b"] = nil
        for key in ["a", "b", "c", "d", "e", "f", "zz"] {
            let read = store.appState(forKey: key)
            #expect(read === store[key]?.state, "\(key)")
        }
        #expect(store.appState(forKey: "f") != nil && store.appState(forKey: "f")?.value == nil, "a tombstone is a state without a value")
        #expect(store.appState(forKey: "d")?.value == .integer(3))
        #expect(store.appState(forKey: "e")?.value == .string("own"))
    }

    @Test("a recent number whose state names another key is passed over, and a state built without a key is found by name")
    func recentNumbersAreCheckedByName() {
        var store: KVSEngine.LocalStore = ["x": KVSEngine.LocalValue(value: .integer(7), write: T.write(0, 1), timestamp: T.at(1))]
        _ = store.apply(change("y", number: 0, .integer(8), sequence: 2))
        #expect(store.appState(forKey: "x")?.value == .integer(7))
        #expect(store.appState(forKey: "y")?.value == .integer(8))
        #expect(store.appState(forKey: "x") === store["x"]?.state)
    }
}
