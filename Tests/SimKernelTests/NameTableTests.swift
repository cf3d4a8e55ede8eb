import Testing
@testable import SyncLabKernel

@Suite("Name table")
struct NameTableTests {
    @Test("a random mix of sets and removals leaves what a dictionary would", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesADictionary(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = NameTable<Int>()
        var reference: [String: Int] = [:]
        for step in 0..<4_000 {
            // Few names, so removals hit names that collide and probe past each other.
            let name = "k\(random.next() % 300)"
            if random.next() % 3 == 0 {
                table[name] = nil
                reference[name] = nil
            } else {
                table[name] = step
                reference[name] = step
            }
            #expect(table.count == reference.count)
        }
        for index in 0..<300 { #expect(table["k\(index)"] == reference["k\(index)"]) }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0.value) }) == reference)
        #expect(table.indices.count == reference.count)
        for index in table.indices { #expect(reference[table.name(at: index)] == table[index]) }
    }

    @Test("a value changes in place at the index a lookup gave")
    func writesThroughAnIndex() {
        var table: NameTable<Int> = ["a": 1, "b": 2]
        let index = table.index(forName: "b")!
        table[index] += 40
        #expect(table["b"] == 42)
        #expect(table.index(forName: "c") == nil)
        #expect(NameTable<Int>().index(forName: "a") == nil)
    }

    @Test("equal and hashed alike whatever order the names came in")
    func equalityIgnoresOrder() {
        var forward = NameTable<Int>(), backward = NameTable<Int>()
        for index in 0..<50 { forward["n\(index)"] = index }
        for index in (0..<50).reversed() { backward["n\(index)"] = index }
        backward["extra"] = 1
        backward["extra"] = nil
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        backward["n3"] = 4
        #expect(forward != backward)
    }

    @Test("removeAll empties it, and it fills again")
    func removeAllThenReuse() {
        var table: NameTable<Int> = ["a": 1]
        table.removeAll()
        #expect(table.isEmpty && table["a"] == nil)
        table["é"] = 2
        #expect(table["é"] == 2 && table.count == 1)
    }
}
