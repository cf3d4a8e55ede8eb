import SyncLabKernel

/// One version of a document, as NSFileVersion describes it.
///
/// The id is the WriteID of the write that produced it (a user save, append or delete, or an
/// engine-made merge or conflict copy), so the checker can follow it without a translation table.
public struct DocumentVersion: Hashable, Sendable {
    public var id: WriteID
    /// The versions this one was built on: the previous local version for an edit, every merged
    /// version for a merge, the copied version for a conflict copy. Empty for a first save.
    public var parents: [WriteID]
    /// The saving device's LOCAL clock when it saved (SPEC §3.2): what the cloud's
    /// `winner: modificationDate` rule compares, skew and all.
    public var modifiedAt: LocalInstant
    public var author: DeviceID
    /// The author's name as users see it (conflict copy names, merge markers).
    public var authorName: String
    public var body: DocumentBody

    public init(id: WriteID, parents: [WriteID], modifiedAt: LocalInstant, author: DeviceID, authorName: String, body: DocumentBody) {
        self.id = id; self.parents = parents; self.modifiedAt = modifiedAt
        self.author = author; self.authorName = authorName; self.body = body
    }

    /// This version with its body dropped: how folded intermediate saves travel.
    public var stub: DocumentVersion {
        var copy = self
        copy.body = .unavailable
        return copy
    }

    /// The deterministic order for merging several versions: modification date, then id.
    public static func mergeOrder(_ lhs: DocumentVersion, _ rhs: DocumentVersion) -> Bool {
        if lhs.modifiedAt != rhs.modifiedAt { return lhs.modifiedAt < rhs.modifiedAt }
        return lhs.id < rhs.id
    }
}
