/// The built-in `keepVersions` document app: it does nothing, so the document stays in conflict
/// with every version kept (`otherVersionsOfItem`), like an app that ignores `.inConflict`.
public struct KeepVersionsApp: DocumentsApp, Sendable {
    /// The app: it keeps no state of its own.
    public init() {}

    /// Resolves the conflict as described above.
    public func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {}
}
