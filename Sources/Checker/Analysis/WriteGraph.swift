import SyncProtocol

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

    mutating func addEdge(from write: WriteID, to builtOn: WriteID) {
        guard write != builtOn else { return }
        let from = index(of: write), to = index(of: builtOn)
        if !edges[from].contains(to) { edges[from].append(to) }
    }

    /// Every write reachable from `roots` (the roots included).
    /// - Complexity: O(writes + edges).
    func reachable(from roots: [WriteID]) -> [Bool] {
        var seen = Array(repeating: false, count: ids.count)
        var stack: [Int] = []
        for root in roots { if let index = indexByID[root], !seen[index] { seen[index] = true; stack.append(index) } }
        while let next = stack.popLast() {
            for target in edges[next] where !seen[target] { seen[target] = true; stack.append(target) }
        }
        return seen
    }

    /// True if `target` ∈ observed(`source`): reachable by one or more edges.
    /// - Complexity: O(what `source` observed).
    mutating func observes(_ source: WriteID, _ target: WriteID) -> Bool {
        guard let from = indexByID[source], let to = indexByID[target], from != to else { return false }
        stamp &+= 1
        if stamp == 0 { for index in visited.indices { visited[index] = 0 }; stamp = 1 }
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
