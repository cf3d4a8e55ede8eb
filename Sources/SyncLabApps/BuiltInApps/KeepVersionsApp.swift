/// The built-in `keepVersions` document app: it does nothing, so the document stays in conflict
/// with every version kept (`otherVersionsOfItem`), like an app that ignores `.inConflict`.
public struct KeepVersionsApp: DocumentsApp, Sendable {
    public init() {}

    public func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {}
}
