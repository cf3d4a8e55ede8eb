/// The built-in `lastWriterWins` document app: the current version (the cloud's last writer by
/// modification date) wins; the other versions are removed. What it loses is the other versions.
public struct LastWriterWinsApp: DocumentsApp, Sendable {
    /// The app: it keeps no state of its own.
    public init() {}

    /// Resolves the conflict as described above.
    public func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        resolver.removeOtherVersions()
    }
}
