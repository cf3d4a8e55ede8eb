/// A team's document code on one virtual device (SPEC §9): what its `UIDocument` subclass does
/// when `documentState` becomes `.inConflict` — look at `NSFileVersion.currentVersionOfItem`,
/// `otherVersionsOfItem`, write a merge, remove the other versions, mark them resolved, or save
/// copies. Port the body of that handler into `documentIsInConflict(_:resolver:)`.
///
/// The app is made when the app launches (install, restart after a crash). Doing nothing keeps
/// the versions (the document stays in conflict), like an app that ignores conflicts.
public protocol DocumentsApp {
    /// The document at `conflict.path` is in conflict; resolve it (or not) through `resolver`.
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver)
}

/// One version of a document, shaped after `NSFileVersion`.
public struct FileVersion: Hashable, Sendable {
    /// Opaque and stable (`persistentIdentifier`): the write that made it.
    public var persistentIdentifier: String
    /// The text, or nil for synthetic content (then only `sizeBytes` is known) or a deletion.
    public var text: String?
    public var sizeBytes: Int64
    /// `modificationDate`: the saving device's local clock, since the run began.
    public var modificationDate: Duration
    /// `localizedNameOfSavingComputer`: the saving device's id.
    public var savingDeviceName: String
    /// The version is a deletion (another device deleted the document).
    public var isDeletion: Bool
}

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

/// What the app does about a conflict. Calls take effect when `documentIsInConflict` returns.
public final class DocumentConflictResolver {
    var content: String?
    var copies: [(path: String, text: String, of: String)] = []
    var resolved = false

    init() {}

    /// Writes `text` as the document's content: a merge of every version (it lists them all as
    /// its parents) that also resolves them.
    public func replaceContent(with text: String) { content = text }

    /// `NSFileVersion.removeOtherVersionsOfItem(at:)`: the other versions go, the current one stays.
    public func removeOtherVersions() { resolved = true }

    /// Sets `isResolved = true` on every other version (the conflict ends; here it also removes them).
    public func markResolved() { resolved = true }

    /// Saves `version`'s text as a new document at `path` (a conflict copy). Synthetic or
    /// deleted versions have no text to copy and are skipped.
    public func saveCopy(of version: FileVersion, as path: String) {
        guard let text = version.text else { return }
        copies.append((path, text, version.persistentIdentifier))
    }
}
