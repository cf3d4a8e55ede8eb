import SyncLabProtocol

/// A field value this device had pending (not yet acknowledged) that a `records.saveAtomic` call,
/// or a write joined to one's atomic group, then replaced locally: what a refusal of that write
/// puts back, so the earlier edit still goes out and meets other devices' edits under the
/// conflict policy instead of being dropped with the call (records seed 1169).
public struct ReplacedPendingField: Hashable, Sendable {
    /// The write that replaced `earlier` (the entry is used only while the field carries it).
    public var replacedBy: WriteID
    /// The device's own pending field as it was before the call (a nil value is a removal).
    public var earlier: StoredField

    public init(replacedBy: WriteID, earlier: StoredField) {
        self.replacedBy = replacedBy; self.earlier = earlier
    }
}
