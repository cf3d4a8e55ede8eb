/// The built-in `merge` document app: the line-by-line three-way merge of every version against
/// their common ancestors becomes the content (a new version built on all of them). When a
/// version has no text (synthetic content), lines cannot be merged: it keeps both instead, which
/// loses nothing, as an app that chose to merge wants.
public struct MergeApp: DocumentsApp, Sendable {
    /// The app: it keeps no state of its own.
    public init() {}

    /// Resolves the conflict as described above.
    public func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        guard resolver.replaceContentWithMerge() else {
            KeepBothApp().documentIsInConflict(conflict, resolver: resolver)
            return
        }
    }
}
