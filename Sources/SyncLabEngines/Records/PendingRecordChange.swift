import SyncLabKernel
import SyncLabProtocol

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
    public var kind: Kind {
        // A pending delete is unconditional: a save still in doubt no longer matters.
        didSet {
            switch kind {
            case .delete:
                if inDoubt != nil || followsSaveInDoubt { replacesSaveInDoubt = true }
                inDoubt = nil
                deleteReplacedBySave = nil
            case .save:
                deleteSent = false
                cascadeOf = nil
                saveReplacedByDelete = nil
                if replacesSaveInDoubt { followsSaveInDoubt = true }
                replacesSaveInDoubt = false
                removedFields = []
            }
        }
    }
    /// The save last sent for this record whose answer never came (lost, or the device crashed
    /// while it was on the wire): the cloud may or may not have applied it.
    ///
    /// Until the cloud answers for it, this exact save (same fields, write ids and change tag) is
    /// what goes out again, whatever the app changed since; newer local edits follow once it is
    /// answered. The cloud recognises a save it already applied and answers it as saved without
    /// applying it twice, so a retry is the same write (SPEC §3.2, §6), never a conflict with this
    /// device's own earlier save, and never overwrites what others built on top of it.
    public var inDoubt: RecordSave?
    /// The delete went out and its answer has not come: the cloud may have applied it already.
    public var deleteSent: Bool = false
    /// This delete replaced a save still in doubt: it goes out again in that save's place, in the
    /// one request the group's saves in doubt go out again in, so the call they went out with is
    /// never re-sent in part (records seed 2610: a call's other record went up alone, and the
    /// delete, refused later, left the call shown in part).
    public var replacesSaveInDoubt: Bool = false
    /// This save follows a delete that replaced a save still in doubt: that save may be in the
    /// cloud though nothing pending is in doubt any more, so a delete of the record must go out
    /// (mixed seed 8474: a delete after the save was taken for one of a record never sent and
    /// dropped, and the first save's answer brought the record back). Cleared when the cloud
    /// answers that save as saved (the device then has its server record).
    public var followsSaveInDoubt: Bool = false
    /// For a delete made as the cascade of another record's delete (by the same write): the name
    /// of that record, which this one references with `deleteSelf` in the same zone; nil for the
    /// record the user deleted. In the public database such a delete waits for that one's answer
    /// (`RecordEngine.awaitsCascadeRoot`).
    public var cascadeOf: String?
    /// For a delete: the fields it removed on this device (shown absent by it), in UTF-8 order.
    public var removedFields: [String] = []
    /// For a delete: when the device made it (its own clock). A save that follows the delete
    /// removes the server record's other fields as its own write, but dated by this: the user
    /// removed them with the delete, so a field set elsewhere after the delete wins the
    /// per-field merge (records seed 5324).
    public var deletedAt: LocalInstant?
    /// The cloud may hold this record because of a save sent and not answered, even one a delete
    /// and a save replaced since.
    public var saveUnanswered: Bool { inDoubt != nil || replacesSaveInDoubt || followsSaveInDoubt }
    /// A save or delete of this record the cloud may or may not have applied: a version fetched
    /// meanwhile waits for the answer (with the records sharing its writes).
    public var awaitingAnswer: Bool { inDoubt != nil || deleteSent }
    /// The record is gone from the cloud (deleted elsewhere, or its zone was): send every local
    /// field as a new record, without a change tag.
    public var reupload: Bool = false
    /// The `records.saveAtomic` write this change belongs to: sent in one atomic request.
    public var atomicGroup: WriteID?
    /// The cloud said `quotaExceeded`: wait until space may have freed.
    public var quotaBlocked: Bool = false
    /// Per field name, the device's own pending values replaced locally by later writes (atomic
    /// calls and plain saves alike; the name is from when only atomic calls kept them), oldest
    /// first: a refusal of a write restores the value from before it (which stays pending) rather
    /// than the last server value, and a refused creation reports them; a chain, since the
    /// writes may be refused separately.
    public var replacedByAtomicCall: [String: [ReplacedPendingField]] = [:]

    /// For a delete that replaced this device's own pending save not in doubt: that save, which
    /// a refusal of the delete puts back (see `SaveReplacedByDelete`).
    public var saveReplacedByDelete: SaveReplacedByDelete?

    /// For a save that followed this device's own pending delete not sent: that delete, which a
    /// refusal of the save's recreation puts back (see `DeleteReplacedBySave`).
    public var deleteReplacedBySave: DeleteReplacedBySave?

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
