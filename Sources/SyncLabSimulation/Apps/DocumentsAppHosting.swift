import SyncLabProtocol
import SyncLabEngines

/// The platform's side of a document app a device hosts (SPEC §9): asked when one of its
/// documents is in conflict, it answers with a resolution in NSFileVersion terms.
public protocol DocumentsAppHosting {
    /// `conflict` is the cloud's state of the document (current version and the other
    /// versions); `ancestor` the common ancestor's text when known.
    mutating func resolve(path: String, conflict: DocumentState, ancestor: String?) -> DocumentAppResolution
}
