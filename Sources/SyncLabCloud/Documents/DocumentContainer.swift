import SyncLabProtocol

/// One account's ubiquity container in the cloud.
struct DocumentContainer: Sendable {
    /// By path (lookups only; listings sort by path).
    var documents: [String: StoredDocument] = [:]
    /// Grows by one at every change; fetch cursors are values of it.
    var sequence: UInt64 = 0
    /// The last conflict ordinal given per (path, author name): `keepBoth` copy numbers.
    var ordinals: [ConflictOrdinalKey: Int] = [:]

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

    /// Paths sorted by their UTF-8 bytes (the order ItemKey uses).
    var sortedPaths: [String] {
        documents.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
