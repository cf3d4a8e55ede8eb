import SyncLabProtocol

/// One account's ubiquity container in the cloud.
struct DocumentContainer: Sendable {
    /// By path (lookups only; listings sort by path).
    var documents: [String: StoredDocument] = [:]
    /// Grows by one at every change; fetch cursors are values of it.
    var sequence: UInt64 = 0
    /// The last conflict ordinal given per (path, author name): `keepBoth` copy numbers.
    var ordinals: [ConflictOrdinalKey: Int] = [:]
    /// Every commit in sequence order (the sequence and the path it changed): what a fetch walks
    /// from its cursor on, so it costs the changes since the cursor, not the container's size.
    /// A path committed again leaves its earlier entry behind (skipped as stale, dropped when
    /// the log has grown to twice the documents).
    private(set) var changeLog: [(sequence: UInt64, path: String)] = []

    struct ConflictOrdinalKey: Hashable, Sendable {
        var path: String
        var authorName: String
    }

    /// The next conflict ordinal for `authorName`'s versions of `path`, counted from 1.
    mutating func nextOrdinal(path: String, authorName: String) -> Int {
        let key = ConflictOrdinalKey(path: path, authorName: authorName)
        let next = (ordinals[key] ?? 0) + 1
        ordinals[key] = next
        return next
    }

    /// Gives back the number `nextOrdinal` just gave (path, author) for an upload the cloud then
    /// refused: the conflict version it numbered was never kept.
    mutating func takeBackOrdinal(path: String, authorName: String) {
        let key = ConflictOrdinalKey(path: path, authorName: authorName)
        guard let last = ordinals[key] else { return }
        ordinals[key] = last > 1 ? last - 1 : nil
    }

    /// Stores a document whose `changedAt` is the container's new sequence, logging the change.
    mutating func commit(_ document: StoredDocument) {
        documents[document.path] = document
        changeLog.append((document.changedAt, document.path))
        if changeLog.count > 2 * documents.count + 16 {
            changeLog.removeAll { documents[$0.path]?.changedAt != $0.sequence }
        }
    }

    /// Paths of the documents changed after `since`, sorted by their UTF-8 bytes.
    func pathsChanged(since: UInt64) -> [String] {
        var low = 0, high = changeLog.count
        while low < high {
            let middle = (low + high) / 2
            if changeLog[middle].sequence <= since { low = middle + 1 } else { high = middle }
        }
        var paths: [String] = []
        for change in changeLog[low...] where documents[change.path]?.changedAt == change.sequence { paths.append(change.path) }
        return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Paths sorted by their UTF-8 bytes (the order ItemKey uses).
    var sortedPaths: [String] {
        documents.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
