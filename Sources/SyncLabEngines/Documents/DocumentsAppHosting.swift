import SyncLabProtocol

/// The platform's side of a document app a device hosts (SPEC §9): asked when one of its
/// documents is in conflict, it answers with a resolution in NSFileVersion terms. The built-in
/// apps are hosted this way too (SyncLabApps' `BuiltInApps`), inside the engine's step.
public protocol DocumentsAppHosting {
    /// `conflict` is the cloud's state of the document at `path` (current version, the other
    /// versions, their ancestry).
    mutating func resolve(path: String, conflict: DocumentState) -> DocumentAppResolution
}
