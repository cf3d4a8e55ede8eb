import SyncProtocol

/// A change to one record accepted locally and not yet acknowledged by the cloud (durable).
public struct PendingRecordChange: Hashable, Sendable {
    /// What the cloud still has to learn.
    public enum Kind: Hashable, Sendable {
        /// These fields changed locally (the values are in the local record). A save of a record
        /// the cloud does not have yet creates it.
        case save(fields: Set<String>)
        /// The record was deleted by this write (unconditional).
        case delete(write: WriteID)
    }

    /// Queue position: changes are sent in the order first made.
    public var order: UInt64
    public var kind: Kind
    /// The record is gone from the cloud (deleted elsewhere, or its zone was): send every local
    /// field as a new record, without a change tag.
    public var reupload: Bool = false
    /// The `records.saveAtomic` write this change belongs to: sent in one atomic request.
    public var atomicGroup: WriteID?
    /// The cloud said `quotaExceeded`: wait until space may have freed.
    public var quotaBlocked: Bool = false

    public init(order: UInt64, kind: Kind, atomicGroup: WriteID?) {
        self.order = order; self.kind = kind; self.atomicGroup = atomicGroup
    }

    /// The pending field names in UTF-8 byte order (empty for a delete).
    public var sortedFields: [String] {
        switch kind {
        case .save(let fields): return fields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        case .delete: return []
        }
    }
}
