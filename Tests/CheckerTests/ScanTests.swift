import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

@Suite("Checker scan: the write graph")
struct ScanTests {
    @Test("a local write is built on what its device showed; a fetched value is built on nothing")
    func localWritesAreBuiltOnWhatWasShown() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])   // t=0s
        builder.fetch(1, at: 1, [(key, .kvs(.integer(1)), a)])          // t=1s
        let b = builder.write(1, at: 2, [(key, .kvs(.integer(2)))])    // t=2s
        let c = builder.write(0, at: 3, [(key, .kvs(.integer(3)))])    // t=3s: A still shows A:1
        var context = PassHarness.scan(builder).context
        let (ia, ib, ic) = (context.graph.existingIndex(of: a)!, context.graph.existingIndex(of: b)!, context.graph.existingIndex(of: c)!)
        let observed = [(ib, ia), (ic, ia), (ic, ib), (ia, ia)].map { context.graph.observes($0.0, $0.1) }
        #expect(observed == [true, true, false, false])
        let item = context.items.sorted([0])[0]
        #expect(context.writes[Int(ib)].touches.map(\.replaced) == [ia])
        #expect(context.latestWrite[Int(item)] == ic)
    }

    @Test("marks reach exactly what the roots were built on, transitively")
    func marksFollowEdges() {
        var graph = WriteGraph(capacity: 4)
        let ids = (1...4).map { graph.index(of: WriteID(device: DeviceID(0), sequence: UInt32($0))) }
        graph.addEdge(from: ids[2], to: ids[1]); graph.addEdge(from: ids[1], to: ids[0]); graph.addEdge(from: ids[2], to: ids[2])
        graph.mark(from: [ids[2]])
        #expect(ids.map { graph.isMarked($0) } == [true, true, true, false])
        #expect(graph.edges[Int(ids[2])] == [ids[1]])
    }
}

@Suite("Checker: IntMap")
struct IntMapTests {
    @Test("an IntMap agrees with a Dictionary through growth", arguments: [0, 1, 7])
    func agreesWithDictionary(seed: Int) {
        var map = IntMap<Int>(capacity: 2)
        var reference: [Int: Int] = [:]
        var state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15
        for step in 0..<5_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let key = Int(truncatingIfNeeded: state >> 40) % 700 - 350   // negative keys too
            #expect(map.exchange(key, step) == reference[key])
            reference[key] = step
        }
        #expect(map.count == reference.count)
        var seen: [Int: Int] = [:]
        map.forEach { seen[$0] = $1 }
        #expect(seen == reference)
        for key in -400..<400 { #expect(map[key] == reference[key]) }
        map.update(5_000, default: 1) { $0 += 1 }
        #expect(map[5_000] == 2)
    }
}
