import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// Key numbers and shared states (docs/PERFORMANCE.md "Issue 13, session 11: KVS"): the cloud
/// numbers each key of an account once and reports one shared state per change; a device finds a
/// numbered key by number and keeps the change's state, not a copy of it.
@Suite struct KVSKeyNumberTests {
    typealias T = KVSTest

    func fetched(_ service: inout KVSService, since: UInt64?, device: Int32 = 2) -> [KVSChange] {
        guard case .changes(let changes, _)? = T.send(&service, .fetch(since: since), device: device, arrival: 9).response else {
            Issue.record("expected a changes answer")
            return []
        }
        return changes
    }

    @Test("the cloud numbers keys in the order they are first written, keeps a key's number, and shares a change's state between fetches")
    func cloudNumbersKeysAndSharesStates() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("b", .integer(1)), ("a", .integer(1))], at: 1)]), device: 0, arrival: 1)
        _ = T.send(&service, .upload(calls: [T.call(T.write(1, 1), [("c", .integer(2)), ("b", .integer(2))], at: 2)]), device: 1, arrival: 2)
        let first = fetched(&service, since: nil)
        #expect(first.map(\.key) == ["a", "b", "c"])
        #expect(first.map(\.number) == [1, 0, 2], "b first, then a, then c; b kept its number when rewritten")
        let again = fetched(&service, since: nil, device: 3)
        #expect(zip(first, again).allSatisfy { $0.state === $1.state }, "one state per change, whoever fetches it")
        #expect(first.allSatisfy { $0.state.key == $0.key && $0.state.write == $0.write })
    }

    @Test("a change's number is a hint: changes are equal by key and state")
    func numbersDoNotChangeEquality() {
        let state = KVSKeyState(key: "k", value: .integer(1), write: T.write(0, 1), timestamp: T.at(1))
        #expect(KVSChange(number: 4, state: state) == KVSChange(key: "k", value: .integer(1), write: T.write(0, 1), timestamp: T.at(1)))
        #expect(KVSChange(number: 4, state: state) != KVSChange(key: "j", value: .integer(1), write: T.write(0, 1), timestamp: T.at(1)))
    }

    @Test("a device keeps a fetched change's state (shared, not copied) at the key's number, and numbers a key it wrote itself when its change comes back")
    func deviceStoresNumberedKeysByNumber() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(1, 1), [("x", .integer(1))], at: 1)]), device: 1, arrival: 1)
        var engine = T.launchedEngine(changes: fetched(&service, since: nil), cursor: 1)
        // Device 0 writes "y" itself: not numbered yet (the cloud has not seen it).
        var write = T.context(at: 2)
        #expect(engine.set([(key: "y", value: .integer(5))], write: T.write(0, 1), &write) == .accepted)
        #expect(engine.stored.values.numberedCount == 1)
        #expect(engine.stored.values.numbered(0)?.value == .integer(1))
        // Its upload, through the cloud.
        var fire = T.context(at: 3)
        engine.handle(.timer(T.timers(write.actions)[0].0), &fire)
        let upload = T.uploads(fire.actions)[0]
        let answer = T.send(&service, .upload(calls: upload.1), device: 0, arrival: 3).response!
        var uploaded = T.context(at: 3)
        engine.handle(.response(T.ok(upload.0, answer)), &uploaded)
        #expect(engine.stored.values.numberedCount == 1, "an upload answer names no keys")
        _ = T.send(&service, .upload(calls: [T.call(T.write(1, 2), [("x", .integer(2))], at: 4)]), device: 1, arrival: 4)
        let changes = fetched(&service, since: 1)
        #expect(changes.map(\.key) == ["x", "y"])
        var sync = T.context(at: 5)
        engine.synchronize(&sync)
        var answered = T.context(at: 5)
        engine.handle(.response(T.ok(T.fetches(sync.actions)[0].0, .changes(changes, cursor: 3))), &answered)
        // "x" found by its number and replaced by the cloud's state; "y" numbered, its own value kept.
        #expect(engine.stored.values.numberedCount == 2)
        #expect(engine.stored.values.numbered(0)?.state === changes[0].state)
        #expect(engine.stored.values.numbered(1)?.write == T.write(0, 1))
        #expect(engine.stored.values.count == 2)
        #expect(T.notifications(answered.actions) == [AppNotification(store: .kvs, reason: "serverChange", items: ["x"])])
        #expect(T.view(engine) == ["x": .integer(2), "y": .integer(5)])
    }

    @Test("a store is equal to another with the same keys and values however its keys are placed, and removing keeps the count")
    func storeEqualityIgnoresPlacement() {
        let one = KVSEngine.LocalValue(value: .integer(1), write: T.write(0, 1), timestamp: T.at(1))
        var byName: KVSEngine.LocalStore = ["a": one]
        var byNumber = KVSEngine.LocalStore()
        let change = KVSChange(number: 3, state: KVSKeyState(key: "a", value: .integer(1), write: T.write(0, 1), timestamp: T.at(1)))
        #expect(byNumber.value(for: change) == nil)
        byNumber.set(KVSEngine.LocalValue(change.state), for: change)
        #expect(byNumber.numberedCount == 4)
        #expect(byName == byNumber)
        #expect(byName.hashValue == byNumber.hashValue)
        #expect(Array(byNumber.map(\.name)) == ["a"])
        byNumber["a"] = nil
        byName["a"] = nil
        #expect(byNumber.isEmpty && byName.isEmpty)
        #expect(byName == byNumber)
        #expect(byNumber["a"] == nil)
    }

    @Test("the last two keys a change was applied to are found by name without the names' table, and only under their own name")
    func recentKeysAreFoundByName() {
        var store = KVSEngine.LocalStore()
        func apply(_ key: String, _ number: UInt32, _ value: Int64) {
            let change = KVSChange(number: number, state: KVSKeyState(key: key, value: .integer(value), write: T.write(0, UInt32(value)), timestamp: T.at(value)))
            _ = store.value(for: change)
            store.set(KVSEngine.LocalValue(change.state), for: change)
        }
        apply("a", 0, 1)
        apply("b", 1, 2)
        apply("c", 2, 3)
        #expect(store.storage.map { $0.header.recentNumbers == (2, 1) } == true)
        #expect(store["c"]?.value == .integer(3))
        #expect(store["b"]?.value == .integer(2))
        #expect(store["a"]?.value == .integer(1), "not recent: found through the names' table")
        // A value written by name (its state without a name) at a recent number is still found.
        store["c"] = KVSEngine.LocalValue(value: .integer(9), write: T.write(0, 9), timestamp: T.at(9))
        #expect(store["c"]?.value == .integer(9))
        #expect(store["d"] == nil)
        apply("c", 2, 10)
        #expect(store.storage.map { $0.header.recentNumbers == (2, 1) } == true, "the same key again does not push the other out")
        #expect(store.count == 3)
    }

    @Test("applying a change in place: unchanged for the same value from the same write, else replaced, saying whether the value changed")
    func applyComparesInPlace() {
        var store = KVSEngine.LocalStore()
        func change(_ value: Int64?, _ write: UInt32, number: UInt32? = 0) -> KVSChange {
            let state = KVSKeyState(key: "k", value: value.map(PlistValue.integer), write: T.write(1, write), timestamp: T.at(Int64(write)))
            return number.map { KVSChange(number: $0, state: state) } ?? KVSChange(key: "k", value: value.map(PlistValue.integer), write: T.write(1, write), timestamp: T.at(Int64(write)))
        }
        func replaced(_ applied: KVSEngine.LocalStore.Applied) -> Bool? {
            if case .replaced(let valueChanged) = applied { return valueChanged }
            return nil
        }
        let first = change(1, 1)
        #expect(replaced(store.apply(first)) == true, "a new key")
        #expect(store.numbered(0)?.state === first.state)
        #expect(replaced(store.apply(first)) == nil, "the same state")
        #expect(replaced(store.apply(change(1, 1))) == nil, "an equal state: same value from the same write")
        #expect(replaced(store.apply(change(1, 2))) == false, "the same value from another write")
        #expect(store.numbered(0)?.write == T.write(1, 2))
        #expect(replaced(store.apply(change(nil, 3))) == true, "removed")
        #expect(replaced(store.apply(change(nil, 3, number: nil))) == nil, "found by name too")
        #expect(store.count == 1 && store["k"]?.value == nil && store["k"]?.write == T.write(1, 3))
    }
}
