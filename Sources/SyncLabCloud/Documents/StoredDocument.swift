import SyncLabProtocol

/// The cloud's record of one document: its current version, its unresolved conflict versions,
/// and every version it has ever known (for idempotent retries and merge ancestry).
struct StoredDocument: Sendable {
    var path: String
    // Any change to what the ancestry is made of drops the cached ancestry (`didSet` without
    // `oldValue` keeps in-place mutation of the collections).
    var current: DocumentVersion { didSet { cachedAncestry = nil } }
    var conflicts: [DocumentConflict] { didSet { cachedAncestry = nil } }
    /// Every version known, by id (lookups only; nothing iterates it in hash order).
    var history: [WriteID: DocumentVersion] { didSet { cachedAncestry = nil } }
    /// `state`'s ancestry as of the last `refreshAncestry()`, nil when stale. Every device fetches
    /// every changed document, so without it a conflicted document's ancestry was walked once
    /// per device and per upload reply instead of once per change.
    private var cachedAncestry: [DocumentVersion]?
    /// The container's change sequence at this document's last change (fetch cursors).
    var changedAt: UInt64

    init(path: String, current: DocumentVersion, changedAt: UInt64) {
        self.path = path; self.current = current; self.conflicts = []
        self.history = [current.id: current]; self.changedAt = changedAt
    }

    /// Bytes charged to the account's storage: the current version plus the conflict versions.
    /// A document the cloud keeps always fits in 64 bits (it fits in the quota); a candidate
    /// whose versions pass 2^63 - 1 bytes together is `storedBytesOverflow` (more than any
    /// quota holds), and this saturates rather than trapping.
    var storedBytes: Int64 {
        conflicts.reduce(current.body.sizeBytes) { ByteCount.sum($0, $1.version.body.sizeBytes) }
    }

    /// The versions together pass 2^63 - 1 bytes: no quota can hold them.
    var storedBytesOverflow: Bool {
        var total = current.body.sizeBytes
        for conflict in conflicts {
            let (sum, overflow) = total.addingReportingOverflow(conflict.version.body.sizeBytes)
            if overflow { return true }
            total = sum
        }
        return false
    }

    /// True if `id` is the current version or an unresolved conflict version.
    func isConflict(_ id: WriteID) -> Bool { conflicts.contains { $0.version.id == id } }

    /// Records versions in the history; a stub never replaces a version whose body is known.
    mutating func remember(_ version: DocumentVersion) {
        if let known = history[version.id], version.body == .unavailable, known.body != .unavailable { return }
        history[version.id] = version
    }

    /// `remember`, noting in `undo` what the history held at that id before (nil: nothing), so
    /// an upload refused after all can take its versions back out.
    mutating func remember(_ version: DocumentVersion, undo: inout [(id: WriteID, previous: DocumentVersion?)]) {
        let known = history[version.id]
        if let known, version.body == .unavailable, known.body != .unavailable { return }
        undo.append((version.id, known))
        history[version.id] = version
    }

    /// Puts back what `undo` recorded, latest first.
    mutating func takeBack(_ undo: [(id: WriteID, previous: DocumentVersion?)]) {
        for entry in undo.reversed() { history[entry.id] = entry.previous }
    }

    /// Ids reachable from `version` through parent links (not including `version` itself).
    /// - Parameter walked: counts the ids visited (the service's work count).
    func ancestors(of version: DocumentVersion, walked: inout Int) -> Set<WriteID> {
        var seen: Set<WriteID> = []
        var stack = version.parents
        while let id = stack.popLast() {
            guard seen.insert(id).inserted else { continue }
            walked += 1
            if let known = history[id] { stack.append(contentsOf: known.parents) }
        }
        return seen
    }

    /// Ids reachable from `version` through parent links.
    func ancestors(of version: DocumentVersion) -> Set<WriteID> {
        var walked = 0
        return ancestors(of: version, walked: &walked)
    }

    /// Whether `target` is an ancestor of `version`: `ancestors(of:).contains(target)`, stopping
    /// as soon as it is found (an upload built on the current version finds it at once, instead
    /// of walking the document's whole history at every save).
    func descends(_ version: DocumentVersion, from target: WriteID, walked: inout Int) -> Bool {
        var seen: Set<WriteID> = []
        var stack = version.parents
        while let id = stack.popLast() {
            if id == target { return true }
            guard seen.insert(id).inserted else { continue }
            walked += 1
            if let known = history[id] { stack.append(contentsOf: known.parents) }
        }
        return false
    }

    /// The state devices see. While in conflict it carries the ancestry every device needs to
    /// find the same common ancestor: shared ancestors with their content, the rest as stubs.
    var state: DocumentState {
        guard !conflicts.isEmpty else { return DocumentState(path: path, current: current, conflicts: [], ancestry: []) }
        return DocumentState(path: path, current: current, conflicts: conflicts, ancestry: cachedAncestry ?? ancestry())
    }

    /// Computes `state`'s ancestry now if a change made it stale, so later reads of `state` on
    /// this value (and on copies stored from it) do not walk the history again.
    mutating func refreshAncestry() {
        guard cachedAncestry == nil, !conflicts.isEmpty else { return }
        cachedAncestry = ancestry()
    }

    /// Versions other than the members that some member descends from, sorted by id; those two
    /// or more members share come with their content.
    private func ancestry() -> [DocumentVersion] {
        let members = [current] + conflicts.map(\.version)
        let memberIDs = Set(members.map(\.id))
        var counts: [WriteID: Int] = [:]
        for member in members {
            for id in ancestors(of: member).union([member.id]) { counts[id, default: 0] += 1 }
        }
        var ancestry: [DocumentVersion] = []
        for id in counts.keys.sorted() where !memberIDs.contains(id) {
            guard let version = history[id] else { continue }
            ancestry.append((counts[id] ?? 0) >= 2 ? version : version.stub)
        }
        return ancestry
    }
}
