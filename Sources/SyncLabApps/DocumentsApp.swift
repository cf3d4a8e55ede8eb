/// A team's document code on one virtual device (SPEC §9): what its `UIDocument` subclass does
/// when `documentState` becomes `.inConflict` — look at `NSFileVersion.currentVersionOfItem`,
/// `otherVersionsOfItem`, write a merge, remove the other versions, mark them resolved, or save
/// copies. Port the body of that handler into `documentIsInConflict(_:resolver:)`.
///
/// The app is made when the app launches (install, restart after a crash). Doing nothing keeps
/// the versions (the document stays in conflict), like an app that ignores conflicts. The
/// built-in policies are apps of this kind, written only against this API: see `BuiltInApps/`
/// (`LastWriterWinsApp`, `KeepVersionsApp`, `KeepBothApp`, `MergeApp`).
public protocol DocumentsApp {
    /// The document at `conflict.path` is in conflict; resolve it (or not) through `resolver`.
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver)
}
