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
    /// Found in the cloud's version history when read (each read walks it again), so a conflict
    /// costs nothing for an app that never asks: the built-in apps do not.
    public var commonAncestorText: String? {
        get { findAncestorText() }
        set { findAncestorText = { newValue } }
    }
    private var findAncestorText: @Sendable () -> String?

    init(path: String, currentVersion: FileVersion, otherVersions: [FileVersion], commonAncestorText: @escaping @Sendable () -> String?) {
        self.path = path; self.currentVersion = currentVersion; self.otherVersions = otherVersions
        findAncestorText = commonAncestorText
    }

    /// Equal when they show the same document, versions and ancestor text.
    public static func == (left: DocumentConflict, right: DocumentConflict) -> Bool {
        left.path == right.path && left.currentVersion == right.currentVersion && left.otherVersions == right.otherVersions
            && left.commonAncestorText == right.commonAncestorText
    }

    /// The ancestor's text is left out (equal conflicts still hash equal): hashing does not walk the history.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(currentVersion)
        hasher.combine(otherVersions)
    }
}
