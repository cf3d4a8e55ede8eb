import SyncLabProtocol

/// The "built on" graph of writes (SPEC §6 `observed`), with dense indices so reachability
/// queries use arrays, not hashing.
///
/// An edge w → x means w was built on x: x was what w's device showed for the item when w was
/// made, or x is a parent w lists (a merge, a conflict copy).
struct WriteGraph {
    private(set) var ids: [WriteID] = []
    private var indexByID: [WriteID: Int] = [:]
    private(set) var edges: [[Int]] = []
    /// Visit stamps for `reaches`: a query bumps `stamp` instead of clearing the array.
    private var visited: [UInt32] = []
    private var stamp: UInt32 = 0

    mutating func index(of id: WriteID) -> Int {
        if let index = indexByID[id] { return index }
        let index = ids.count
        ids.append(id); edges.append([]); visited.append(0)
        indexByID[id] = index
        return index
    }

    func existingIndex(of id: WriteID) -> Int? { indexByID[id] }

    /// The writes `write` was directly built on.
    func builtOn(_ write: WriteID) -> [WriteID] { indexByID[write].map { edges[$0].map { ids[$0] } } ?? [] }

    mutating func addEdge(from write: WriteID, to builtOn: WriteID) {
        guard write != builtOn else { return }
        let from = index(of: write), to = index(of: builtOn)
        if !edges[from].contains(to) { edges[from].append(to) }
    }

    /// Marks every write reachable from `roots` (the roots included), forgetting the previous
    /// marks; `isMarked` then answers for each write. One item's survivors at a time, without
    /// allocating a fresh array per item.
    /// - Complexity: O(what the roots reach).
    mutating func mark(from roots: [WriteID]) {
        nextStamp()
        var stack: [Int] = []
        for root in roots { if let index = indexByID[root], visited[index] != stamp { visited[index] = stamp; stack.append(index) } }
        while let next = stack.popLast() {
            for target in edges[next] where visited[target] != stamp { visited[target] = stamp; stack.append(target) }
        }
    }

    /// Was `write` reached by the last `mark`?
    func isMarked(_ write: WriteID) -> Bool { indexByID[write].map { visited[$0] == stamp } ?? false }

    private mutating func nextStamp() {
        stamp &+= 1
        if stamp == 0 { for index in visited.indices { visited[index] = 0 }; stamp = 1 }
    }

    /// True if `target` ∈ observed(`source`): reachable by one or more edges.
    /// - Complexity: O(what `source` observed).
    mutating func observes(_ source: WriteID, _ target: WriteID) -> Bool {
        guard let from = indexByID[source], let to = indexByID[target], from != to else { return false }
        nextStamp()
        var stack = [from]
        visited[from] = stamp
        while let next = stack.popLast() {
            for neighbour in edges[next] {
                if neighbour == to { return true }
                if visited[neighbour] != stamp { visited[neighbour] = stamp; stack.append(neighbour) }
            }
        }
        return false
    }
}
