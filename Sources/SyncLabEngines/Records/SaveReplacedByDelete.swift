import SyncLabProtocol

/// The device's own pending save of a record that a later `record.delete` (or an atomic call's
/// delete) replaced before it went out: what a refusal of that delete puts back, so the earlier
/// edit still goes out instead of the record falling back to the last server record seen, which
/// showed an atomic call in part (records seed 22349: a call's other record kept the call's
/// value while this one went back to the value the call had replaced).
public struct SaveReplacedByDelete: Hashable, Sendable {
    /// The fields the save had pending.
    public var fields: Set<String>
    /// The device's copy of the record before the delete.
    public var local: LocalRecord

    public init(fields: Set<String>, local: LocalRecord) {
        self.fields = fields; self.local = local
    }
}
