import SyncLabKernel

/// One field of a record as engines and the cloud keep it: the value (nil: the field was removed),
/// the write that produced it, and when the editing device made that edit by its own clock.
///
/// The write id travels with the value so the checker can follow every field (SPEC §6). The
/// modification time is the user-side modification date the merge policy compares, as Apple's
/// CKSyncEngine sample does, so a skewed device clock can invert the order (the checker sees it).
public struct StoredField: Hashable, Sendable {
    /// The value; nil marks a removed field (kept so the removal's write id is known).
    public var value: FieldValue?
    public var write: WriteID
    /// The editing device's local clock when the edit was made.
    public var modifiedAt: LocalInstant
    /// A removal that a device's own delete made, carried by the save that replaced the delete
    /// (SPEC §4.3: the two become one save), not a user's removal of the field. A merge without
    /// an ancestor counts a user's removal as the other side's change but not a delete's: an
    /// edit wins over a delete (records seeds 191 and 2505).
    public var removedByDelete: Bool

    public init(value: FieldValue?, write: WriteID, modifiedAt: LocalInstant, removedByDelete: Bool = false) {
        self.value = value; self.write = write; self.modifiedAt = modifiedAt; self.removedByDelete = removedByDelete
    }

    /// Bytes counted toward the record size for a field of this name. Assets are excluded
    /// whole: an asset field (or a list of assets) is stored apart, its name with it.
    public func sizeBytes(name: String) -> Int {
        guard let value, !value.isAssetOnly else { return 0 }
        return name.utf8.count + value.sizeBytes
    }

    /// Asset bytes inside the value.
    public var assetBytes: Int64 { value?.assetBytes ?? 0 }
}
