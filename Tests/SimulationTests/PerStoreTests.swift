import Testing
import SyncLabProtocol
@testable import SyncLabSimulation

/// `PerStore` stands in for the device's three-element arrays indexed by `Store.slot`.
@Suite("Per-store values")
struct PerStoreTests {
    @Test func eachStoreHasItsOwnValue() {
        var values = PerStore<Int>(repeating: 0)
        values[.kvs] = 1
        values[.documents] += 2
        values[.records] = 3
        #expect(Store.allCases.map { values[$0] } == [1, 2, 3])
        #expect(values.kvs == 1 && values.documents == 2 && values.records == 3)
    }

    @Test func madePerStoreInStoreOrder() {
        var made: [Store] = []
        let names = PerStore { store -> String in made.append(store); return store.rawValue }
        #expect(made == Store.allCases)
        #expect(Store.allCases.allSatisfy { names[$0] == $0.rawValue })
    }

    @Test func modifiedInPlace() {
        var lists = PerStore<[Int]>(repeating: [])
        lists[.documents].append(7)
        lists[.documents].append(8)
        #expect(lists[.documents] == [7, 8])
        #expect(lists[.kvs].isEmpty && lists[.records].isEmpty)
    }
}
