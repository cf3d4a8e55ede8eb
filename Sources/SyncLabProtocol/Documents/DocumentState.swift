/// The cloud's state of one document, as fetches and upload replies carry it.
public struct DocumentState: Hashable, Sendable {
    public var path: String
    /// The current version; a tombstone (`.deleted` body) when the document was deleted. In a
    /// fetch reply its body is `.unavailable` when the fetch said the device holds this version.
    public var current: DocumentVersion
    /// Unresolved conflict versions, in the order the cloud detected them.
    public var conflicts: [DocumentConflict]
    /// While there are conflicts: the ancestors of the current and conflict versions, sorted by id,
    /// so every device walks the same parent graph to the same common ancestor for a merge.
    /// Versions shared by two or more of them carry their content; the others travel as stubs.
    public var ancestry: [DocumentVersion]

    public init(path: String, current: DocumentVersion, conflicts: [DocumentConflict], ancestry: [DocumentVersion]) {
        self.path = path; self.current = current; self.conflicts = conflicts; self.ancestry = ancestry
    }

    /// True while the document has unresolved conflict versions (UIDocument `.inConflict`).
    public var inConflict: Bool { !conflicts.isEmpty }

    /// Bytes of content this state carries on the wire (saturating: `ByteCount`).
    public var transferBytes: Int64 { transferBytes(withCurrent: true) }

    /// Bytes of content on the wire, the current version's body left out when `withCurrent` is
    /// false (a reply to the device that sent it).
    public func transferBytes(withCurrent: Bool) -> Int64 {
        var total = withCurrent ? current.body.sizeBytes : 0
        for conflict in conflicts { total = ByteCount.sum(total, conflict.version.body.sizeBytes) }
        for version in ancestry { total = ByteCount.sum(total, version.body.sizeBytes) }
        return total
    }
}
