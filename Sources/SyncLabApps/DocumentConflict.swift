/// A document in conflict: the current version (the one every device shows), the other
/// versions, and the common ancestor's text when known.
public struct DocumentConflict: Hashable, Sendable {
    /// The document's path in the container.
    public var path: String
    /// `NSFileVersion.currentVersionOfItem(at:)`.
    public var currentVersion: FileVersion
    /// `NSFileVersion.unresolvedConflictVersionsOfItem(at:)`, in the order the cloud detected them.
    public var otherVersions: [FileVersion]
    /// The text of the versions' common ancestor, nil when none is known (merge against empty).
    public var commonAncestorText: String?
}
