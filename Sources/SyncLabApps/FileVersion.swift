/// One version of a document, shaped after `NSFileVersion`.
public struct FileVersion: Hashable, Sendable {
    /// Opaque and stable (`persistentIdentifier`): the write that made it.
    public var persistentIdentifier: String
    /// The text, or nil for synthetic content (then only `sizeBytes` is known) or a deletion.
    public var text: String?
    /// The content's size in bytes (`fileSize`).
    public var sizeBytes: Int64
    /// `modificationDate`: the saving device's local clock, since the run began.
    public var modificationDate: Duration
    /// `localizedNameOfSavingComputer`: the saving device's id.
    public var savingDeviceName: String
    /// The version is a deletion (another device deleted the document).
    public var isDeletion: Bool
}
