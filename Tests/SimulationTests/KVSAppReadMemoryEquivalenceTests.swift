import Testing
import SyncLabProtocol
@testable import SyncLabSimulation

/// The memory gives exactly the parents of noting each read as it came (the list per key of
/// before the log), for any mix of reads, re-reads and writes made here.
struct KVSAppReadMemoryEquivalenceTests {
    /// The memory as it was kept before the log: per key a list, scanned on every note.
    struct Reference {
        var seen: [String: [WriteID]] = [:]
        mutating func note(_ key: String, _ write: WriteID, madeHere: Bool) {
            if madeHere { seen[key] = [write]; return }
            var writes = seen[key, default: []]
            guard !writes.contains(write) else { return }
            if writes.count >= 64 { writes.removeFirst() }
            writes.append(write)
            seen[key] = writes
        }
        var parents: [WriteID] {
            var parents: [WriteID] = []
            for writes in seen.values { for write in writes where !parents.contains(write) { parents.append(write) } }
            return parents.sorted()
        }
    }

    @Test("the parents are those of noting each read as it came (the lists kept before the log), over random reads, re-reads and writes")
    func parentsMatchNotingEachReadAsItCame() {
        var memory = KVSAppReadMemory()
        var reference = Reference()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var compared = 0
        for _ in 0..<6_000 {
            let key = "k\(next(4))"
            // Few writes, so reads come back to ones remembered and ones evicted.
            let write = WriteID(device: DeviceID(Int32(next(3))), sequence: UInt32(next(90)))
            if next(50) == 0 {
                memory.noteMadeHere(key, write)
                reference.note(key, write, madeHere: true)
            } else {
                memory.noteReads([(key: key, write: write)])
                reference.note(key, write, madeHere: false)
            }
            if next(200) == 0 {
                #expect(memory.parents() == reference.parents)
                compared += 1
            }
        }
        #expect(memory.parents() == reference.parents)
        #expect(compared > 10)
    }
}
