import SyncLabProtocol

/// The "built on" graph of writes (SPEC §6 `observed`), with dense indices so reachability
/// queries use arrays, not hashing.
///
/// An edge w → x means w was built on x: x was what w's device showed for the item when w was
/// made, or x is a parent w lists (a merge, a conflict copy). The passes ask their questions by
/// dense index (`Int32`); `index(of:)` is the one place a `WriteID` is hashed.
struct WriteGraph {
    private(set) var ids: [WriteID] = []
    /// Dense index by `WriteGraph.key(of:)`.
    private var indexByID: IntMap<Int32>
    private(set) var edges: [[Int32]] = []
    /// Visit stamps for `mark` and `observes`: a query bumps `stamp` instead of clearing the array.
    private var visited: [UInt32] = []
    private var stamp: UInt32 = 0
    /// The reusable depth-first stack.
    private var stack: [Int32] = []
    /// Per write, when it was made (microseconds; `Int64.min` when unknown): see `rank`.
    private var stamps: [Int64] = []
    /// Per write, the latest stamp among it and everything it observed. Along an edge the rank
    /// never grows, so a write whose rank is below a target's cannot reach the target: `observes`
    /// leaves it out. Without this, each last-writer-wins decision between two writes of a long
    /// chain (20,000 increments of one key) walked the whole chain: quadratic in the writes.
    /// Correct for any stamps (a rank is a maximum over what the write reaches, whatever the
    /// stamps mean); the stamps only decide how much is left out.
    private var ranks: [Int64] = []
    /// `ranks` matches the edges and stamps (edges added since drop it).
    private var ranksValid = false
    /// False when the edges hold a cycle: ranks are then not a bound, and `observes` prunes nothing.
    private var acyclic = true
    /// Writes `observes` visited since the graph was made: the work count tests hold to the
    /// number of questions asked.
    private(set) var visitedCount = 0

    init(capacity: Int) {
        ids.reserveCapacity(capacity); indexByID = IntMap(capacity: capacity)
        edges.reserveCapacity(capacity); visited.reserveCapacity(capacity)
    }

    var count: Int { ids.count }

    /// The dense index of `id`, giving it one if it has none.
    mutating func index(of id: WriteID) -> Int32 {
        let index = Int32(ids.count)
        var found = index
        indexByID.update(WriteGraph.key(of: id), default: index) { found = $0 }
        guard found == index else { return found }
        ids.append(id); edges.append([]); visited.append(0); stamps.append(.min); ranks.append(.min)
        return index
    }

    func existingIndex(of id: WriteID) -> Int32? { indexByID[WriteGraph.key(of: id)] }

    /// A write id in one integer: device, then derived, then sequence (each part in its own bits).
    @inline(__always) static func key(of id: WriteID) -> Int {
        Int(id.device.index) << 33 | (id.derived ? 1 << 32 : 0) | Int(id.sequence)
    }

    subscript(index: Int32) -> WriteID { ids[Int(index)] }

    /// Records that `write` was built on `builtOn` (no self edges, no duplicates).
    mutating func addEdge(from write: Int32, to builtOn: Int32) {
        guard write != builtOn else { return }
        if !edges[Int(write)].contains(builtOn) { edges[Int(write)].append(builtOn); ranksValid = false }
    }

    /// Records when `write` was made (the latest of the times given), for `observes` to prune by.
    mutating func stamp(_ write: Int32, at microseconds: Int64) {
        guard microseconds > stamps[Int(write)] else { return }
        stamps[Int(write)] = microseconds
        ranksValid = false
    }

    /// Computes every write's rank (the latest stamp it reaches), depth first without recursion.
    /// - Complexity: O(writes + edges).
    private mutating func computeRanks() {
        ranksValid = true
        acyclic = true
        // 0: not yet visited, 1: on the stack, 2: done.
        var state = [UInt8](repeating: 0, count: ids.count)
        var path: [(node: Int32, next: Int)] = []
        for root in ids.indices where state[root] == 0 {
            state[root] = 1
            ranks[root] = stamps[root]
            path.append((Int32(root), 0))
            while let top = path.last {
                let node = Int(top.node)
                if top.next < edges[node].count {
                    path[path.count - 1].next += 1
                    let target = Int(edges[node][top.next])
                    switch state[target] {
                    case 0:
                        state[target] = 1
                        ranks[target] = stamps[target]
                        path.append((Int32(target), 0))
                    case 1:
                        acyclic = false
                    default:
                        ranks[node] = max(ranks[node], ranks[target])
                    }
                } else {
                    state[node] = 2
                    path.removeLast()
                    if let parent = path.last { ranks[Int(parent.node)] = max(ranks[Int(parent.node)], ranks[node]) }
                }
            }
        }
    }

    /// Marks every write reachable from `roots` (the roots included), forgetting the previous
    /// marks; `isMarked` then answers for each write. One item's survivors at a time, without
    /// allocating a fresh array per item.
    /// - Complexity: O(what the roots reach).
    mutating func mark(from roots: [Int32]) {
        nextStamp()
        stack.removeAll(keepingCapacity: true)
        for root in roots where visited[Int(root)] != stamp { visited[Int(root)] = stamp; stack.append(root) }
        while let next = stack.popLast() {
            for target in edges[Int(next)] where visited[Int(target)] != stamp { visited[Int(target)] = stamp; stack.append(target) }
        }
    }

    /// Was `write` reached by the last `mark`?
    func isMarked(_ write: Int32) -> Bool { visited[Int(write)] == stamp }

    private mutating func nextStamp() {
        stamp &+= 1
        if stamp == 0 { for index in visited.indices { visited[index] = 0 }; stamp = 1 }
    }

    /// True if `target` ∈ observed(`source`): reachable by one or more edges.
    /// - Complexity: O(what `source` observed).
    /// - Complexity: O(what `source` observed whose rank is at least `target`'s): for writes
    ///   stamped in the order they were made, O(1) when `source` was made before `target`.
    mutating func observes(_ source: Int32, _ target: Int32) -> Bool {
        guard source != target else { return false }
        if !ranksValid { computeRanks() }
        // Nothing below the target's rank can reach it (on a graph with a cycle, ranks bound nothing).
        let floor = acyclic ? ranks[Int(target)] : Int64.min
        guard ranks[Int(source)] >= floor else { return false }
        nextStamp()
        stack.removeAll(keepingCapacity: true)
        stack.append(source)
        visited[Int(source)] = stamp
        visitedCount += 1
        while let next = stack.popLast() {
            for neighbour in edges[Int(next)] {
                if neighbour == target { return true }
                if visited[Int(neighbour)] != stamp && ranks[Int(neighbour)] >= floor {
                    visited[Int(neighbour)] = stamp
                    visitedCount += 1
                    stack.append(neighbour)
                }
            }
        }
        return false
    }

    /// `observes` for a write that may not be in the graph (then it observed nothing and
    /// nothing observed it).
    mutating func observes(_ source: Int32, _ target: WriteID) -> Bool {
        guard let target = existingIndex(of: target) else { return false }
        return observes(source, target)
    }
}
