import SyncLabKernel
import SyncLabProtocol

/// The device's own pending delete of a record that a later save replaced before it went out
/// (the two become one save, SPEC §4.3): what a refusal of that save puts back, so the record is
/// shown deleted by the delete, still pending, instead of falling back to the last server record
/// seen, which showed an atomic call in part (records seed 22349: a call's other record kept the
/// call's value while this one went back to the value the call had replaced).
public struct DeleteReplacedBySave: Hashable, Sendable {
    /// The delete's write.
    public var write: WriteID
    /// The fields the delete removed on this device, in UTF-8 order.
    public var removedFields: [String]
    /// When the device made the delete (its own clock).
    public var deletedAt: LocalInstant?
    /// The save the delete itself had replaced, which a refusal of the delete puts back.
    public var saveReplacedByDelete: SaveReplacedByDelete?

    public init(write: WriteID, removedFields: [String], deletedAt: LocalInstant?, saveReplacedByDelete: SaveReplacedByDelete?) {
        self.write = write; self.removedFields = removedFields; self.deletedAt = deletedAt
        self.saveReplacedByDelete = saveReplacedByDelete
    }
}
