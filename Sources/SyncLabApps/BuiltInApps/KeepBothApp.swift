/// The built-in `keepBoth` document app: every other version is saved as a new document with
/// the platform's conflict-copy name (`NAME (conflict DEVICE N).EXT`), then the conflict is
/// resolved; the current version stays at the path. Nothing is lost; the user merges by hand.
public struct KeepBothApp: DocumentsApp, Sendable {
    /// The app: it keeps no state of its own.
    public init() {}

    /// Resolves the conflict as described above.
    public func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        for version in conflict.otherVersions { resolver.saveCopy(of: version) }
        resolver.markResolved()
    }
}
