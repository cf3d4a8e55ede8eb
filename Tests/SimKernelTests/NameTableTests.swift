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

    @Test("a name's hash is its FNV-1a hash folded to 31 bits, for small, long and non-ASCII names")
    func hashIsFoldedFNV() {
        for name in ["", "k1", "é", "a-long-key-that-is-not-a-small-string", "😀a"] {
            let full = FNV1a64.hash(name)
            #expect(NameTable<Int>.hash(name) == UInt32(truncatingIfNeeded: full ^ (full >> 32)) | 0x8000_0000)
        }
    }

    @Test("a full table keeps finding every name as it grows past 7/8 and shrinks by removals")
    func probesAtHighLoad() {
        var table = NameTable<Int>()
        for index in 0..<1_000 {
            table["n\(index)"] = index
            #expect(table.slots.count * 7 >= table.count * 8)
        }
        for index in stride(from: 0, to: 1_000, by: 2) { table["n\(index)"] = nil }
        for index in 0..<1_000 { #expect(table["n\(index)"] == (index % 2 == 1 ? index : nil)) }
        #expect(table.count == 500 && table.indices.count == 500)
    }
}
