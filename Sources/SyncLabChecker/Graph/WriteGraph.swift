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
        ids.append(id); edges.append([]); visited.append(0)
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
        if !edges[Int(write)].contains(builtOn) { edges[Int(write)].append(builtOn) }
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
    mutating func observes(_ source: Int32, _ target: Int32) -> Bool {
        guard source != target else { return false }
        nextStamp()
        stack.removeAll(keepingCapacity: true)
        stack.append(source)
        visited[Int(source)] = stamp
        while let next = stack.popLast() {
            for neighbour in edges[Int(next)] {
                if neighbour == target { return true }
                if visited[Int(neighbour)] != stamp { visited[Int(neighbour)] = stamp; stack.append(neighbour) }
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
