import Testing
import SyncLabProtocol
@testable import SyncLabChecker

/// Reachability questions cost what they must look at (issue 14, item 9): a last-writer-wins
/// decision between two writes of a long chain no longer walks the whole chain.
struct WriteGraphScaleTests {
    /// Writes 1…count of one device, each built on the one before, stamped in the order made.
    static func chain(_ count: Int) -> (graph: WriteGraph, ids: [Int32]) {
        var graph = WriteGraph(capacity: count)
        let ids = (1...count).map { graph.index(of: WriteID(device: DeviceID(0), sequence: UInt32($0))) }
        for (position, id) in ids.enumerated() {
            graph.stamp(id, at: Int64(position) * 1_000_000)
            if position > 0 { graph.addEdge(from: id, to: ids[position - 1]) }
        }
        return (graph, ids)
    }

    @Test func aDecisionPerWriteOfALongChainVisitsAFewWritesEach() {
        let count = 20_000
        var (graph, ids) = WriteGraphScaleTests.chain(count)
        // Each newer write was chosen over the one before it (the increments' decisions), and
        // each write observed the one before.
        for position in 1..<count {
            let olderObservesNewer = graph.observes(ids[position - 1], ids[position])
            let newerObservesOlder = graph.observes(ids[position], ids[position - 1])
            #expect(!olderObservesNewer)
            #expect(newerObservesOlder)
        }
        // Without ranks, the first question alone walked the chain: 20,000² / 2 visits in all.
        #expect(graph.visitedCount <= 2 * count, "visited \(graph.visitedCount)")
    }

    /// A small xorshift, so the graphs are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func pruningAnswersAsAPlainSearchDoes(seed: UInt64) {
        var random = Generator(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        let count = 40
        var graph = WriteGraph(capacity: count)
        let ids = (1...count).map { graph.index(of: WriteID(device: DeviceID(Int32($0 % 3)), sequence: UInt32($0))) }
        var edges = [[Int]](repeating: [], count: count)
        for node in 0..<count {
            // Stamps in any order, equal ones too, some missing: pruning must stay right anyway.
            if random.next(5) > 0 { graph.stamp(ids[node], at: Int64(random.next(10))) }
            for _ in 0..<random.next(3) {
                // Mostly to earlier writes; with seed 8 an edge forward can close a cycle.
                let target = seed == 8 ? random.next(count) : random.next(max(node, 1))
                if target != node { graph.addEdge(from: ids[node], to: ids[target]); edges[node].append(target) }
            }
        }
        func reaches(_ source: Int, _ target: Int) -> Bool {
            var seen = Set<Int>(), stack = edges[source]
            while let next = stack.popLast() {
                if next == target { return true }
                if seen.insert(next).inserted { stack += edges[next] }
            }
            return false
        }
        for source in 0..<count {
            for target in 0..<count where source != target {
                let answer = graph.observes(ids[source], ids[target])
                #expect(answer == reaches(source, target), "\(source) → \(target)")
            }
        }
    }
}
