import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The store's ring of recently applied numbers and a hosted read's guess from it
/// (`LocalStore.appState(forKey:back:)`, docs/HOSTING.md "What hosting costs", eleventh round).
@Suite struct KVSLocalStoreRecentNumbersTests {
    typealias T = KVSTest

    func change(_ key: String, number: UInt32, sequence: UInt32) -> KVSChange {
        KVSChange(number: number, state: KVSKeyState(key: key, value: .integer(Int64(sequence)), write: T.write(1, sequence), timestamp: T.at(Int64(sequence))))
    }

    /// Keys k0…k9 applied in order, at numbers 9…0.
    func tenApplied() -> KVSEngine.LocalStore {
        var store = KVSEngine.LocalStore()
        for index in 0..<10 { _ = store.apply(change("k\(index)", number: UInt32(9 - index), sequence: UInt32(index + 1))) }
        return store
    }

    @Test("the ring keeps the last eight numbers applied, in order, a repeat of the newest once")
    func ringKeepsTheLastEight() {
        var recent = KVSEngine.LocalStore.RecentNumbers()
        #expect(recent.lastTwo == (.max, .max), "nothing pushed")
        for number: UInt32 in [5, 5, 6] { recent.push(number) }
        #expect(recent.pushed == 2 && recent.lastTwo == (6, 5))
        for number: UInt32 in 10..<20 { recent.push(number) }
        #expect((1...8).map { recent.number(back: UInt32($0)) } == Array((12..<20).reversed()))
        #expect(recent.number(back: 0) == .max && recent.number(back: 9) == .max, "no guess, and beyond the ring")
        #expect(tenApplied().storage.map { $0.header.recentNumbers == (0, 1) } == true)
    }

    @Test("a fetched change is pushed only when it changes the key's value, as only then is the key notified")
    func onlyValueChangesArePushed() {
        var store = tenApplied()
        let pushed = store.storage?.header.recent.pushed
        // k8 (number 1, not the newest) written again with the value it shows, by another write:
        // applied, not notified.
        let same = KVSChange(number: 1, state: KVSKeyState(key: "k8", value: .integer(9), write: T.write(2, 1), timestamp: T.at(50)))
        guard case .replaced(valueChanged: false) = store.apply(same) else {
            Issue.record("the same value from another write replaces the state")
            return
        }
        #expect(store["k8"]?.write == T.write(2, 1))
        // A removal of a key the store never held: stored as a tombstone, not notified.
        _ = store.apply(KVSChange(number: 20, state: KVSKeyState(key: "new", value: nil, write: T.write(2, 2), timestamp: T.at(51))))
        #expect(store.storage?.header.recent.pushed == pushed, "neither pushed")
        _ = store.apply(change("k8", number: 1, sequence: 60))
        #expect(store.storage.map { $0.header.recentNumbers == (1, 0) } == true, "a new value is")
    }

    @Test("a notification's keys read in its order are each found at the guess, which moves one nearer")
    func readsInOrderFollowTheGuess() {
        let store = tenApplied()
        // The last four applied, k6…k9, as a notification of four keys names them.
        var back: UInt32 = 4
        for key in ["k6", "k7", "k8", "k9"] {
            let before = back
            #expect(store.appState(forKey: key, back: &back) === store[key]?.state, "\(key)")
            #expect(back == before - 1, "\(key) found at its guess")
        }
        #expect(back == 0)
        // Eight back is still in the ring, nine is not (found by name, no guess moved).
        back = 8
        #expect(store.appState(forKey: "k2", back: &back) === store["k2"]?.state && back == 7)
        back = 9
        #expect(store.appState(forKey: "k1", back: &back) === store["k1"]?.state && back == 9)
    }

    @Test("a guess naming another key leaves the guess where it is and reads what the store holds")
    func wrongGuessesReadTheStore() {
        var store = tenApplied()
        store["loose"] = KVSEngine.LocalValue(value: .string("own"), write: T.write(0, 1), timestamp: T.at(99))
        for key in ["k9", "k0", "k5", "loose", "absent"] {
            var back: UInt32 = 3
            #expect(store.appState(forKey: key, back: &back) === store[key]?.state, "\(key)")
            #expect(back == 3, "\(key) is not 3 back (k7 is)")
        }
        // A value written by name at a ring number (its state without a name) is not taken for the key.
        store["k7"] = KVSEngine.LocalValue(value: .integer(70), write: T.write(0, 2), timestamp: T.at(100))
        var back: UInt32 = 3
        #expect(store.appState(forKey: "k7", back: &back)?.value == .integer(70))
        #expect(back == 3)
    }
}
