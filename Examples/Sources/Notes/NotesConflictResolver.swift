import SyncLab

/// The notes app's `UIDocument` conflict handling: every line any version has is kept (the
/// current version's order first), written as the new content, which resolves the conflict.
public struct NotesConflictResolver: DocumentsApp {
    public init() {}

    public mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        // Synthetic (attachment-only) versions have no text to merge: keep them as copies.
        for version in conflict.otherVersions where version.text == nil && !version.isDeletion {
            resolver.saveCopy(of: version, as: conflict.path + " (" + version.savingDeviceName + ")")
        }
        var lines: [Substring] = []
        for version in [conflict.currentVersion] + conflict.otherVersions {
            for line in (version.text ?? "").split(separator: "\n") where !lines.contains(line) { lines.append(line) }
        }
        resolver.replaceContent(with: lines.map { $0 + "\n" }.joined())
    }
}

/// The naive version: keeps whatever iCloud picked as current and deletes the other versions,
/// as many apps do to make the conflict go away. SyncLab finds the edit it loses.
public struct NaiveNotesConflictResolver: DocumentsApp {
    public init() {}

    public mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        resolver.removeOtherVersions()
        resolver.markResolved()
    }
}
