/// What the app does about a conflict. Calls take effect when `documentIsInConflict` returns.
///
/// Write ids are the platform's: a copy names the version it copies by the `FileVersion` the app
/// was shown, so the copy is built on that version's write; new content is a new write built on
/// every version; `replaceItem(with:)` makes a version current with its own write.
public final class DocumentConflictResolver {
    /// The new content, and whether it is the platform's merge (`replaceContentWithMerge`).
    var content: (text: String, isMerge: Bool)?
    /// Copies asked for: the path (nil: the platform names it), the text (nil: the version's own content), the version copied.
    var copies: [(path: String?, text: String?, of: String)] = []
    var resolved = false
    /// The version `replaceItem(with:)` chose (its `persistentIdentifier`).
    var chosen: String?
    /// The platform's three-way merge of the conflict's versions, computed only when asked.
    private let mergeOfVersions: () -> String?

    init(merge: @escaping () -> String?) { mergeOfVersions = merge }

    /// Writes `text` as the document's content: a merge of every version (it lists them all as
    /// its parents) that also resolves them.
    /// Replaces an earlier `replaceItem(with:)`: the last of the two calls decides the content.
    public func replaceContent(with text: String) { content = (text, false); chosen = nil }

    /// Writes the line-by-line three-way merge of every version as the document's content, as
    /// `replaceContent(with:)` does (the built-in `merge` app). The current version is merged
    /// with each other version by modification date (ties: the order of their writes), each time
    /// against the common ancestor of what is merged so far and that version (none: the empty
    /// document); lines both sides changed are kept, both, between conflict markers.
    /// - Returns: false, and does nothing, when a version has no text (synthetic content or a
    ///   deletion: nothing to merge by lines).
    @discardableResult
    public func replaceContentWithMerge() -> Bool {
        guard let merged = mergeOfVersions() else { return false }
        content = (merged, true)
        chosen = nil
        return true
    }

    /// `otherVersion.replaceItem(at: url)`: `version` becomes the document's current version as
    /// it is, keeping its own write (nothing new is written, nothing is merged), and the current
    /// version it replaces goes. Other versions stay in conflict unless the app also calls
    /// `removeOtherVersions()` or `markResolved()`. The cloud makes the change (one round trip,
    /// after any copies): every device then shows `version`. If the document changed meanwhile
    /// (another device resolved it, or saved over the current version) the cloud refuses, nothing
    /// changes, and the app is asked again while the document is still in conflict.
    ///
    /// Choosing the current version changes nothing. The last of `replaceItem`,
    /// `replaceContent(with:)` and `replaceContentWithMerge()` decides the content.
    /// A deletion can be chosen: the document is then deleted.
    public func replaceItem(with version: FileVersion) { chosen = version.persistentIdentifier; content = nil }

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

    /// Saves `version` as a new document the platform names as iCloud names conflict copies:
    /// `NAME (conflict DEVICE N).EXT`, DEVICE the version's saving device and N the cloud's
    /// number for the version (0 for the current version), moved on to N+1… past any name this
    /// device shows with other content (a copy never overwrites a document the user has). The
    /// copy has the version's own content, synthetic content included; a deletion is skipped.
    /// Devices that copy the same version choose the same name, so their copies meet as one.
    public func saveCopy(of version: FileVersion) {
        guard !version.isDeletion else { return }
        copies.append((nil, nil, version.persistentIdentifier))
    }
}
