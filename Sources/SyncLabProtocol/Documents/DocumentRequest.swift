/// A request of the Documents service.
public enum DocumentRequest: Hashable, Sendable {
    /// Documents changed since `since` (a cursor from an earlier reply; 0 for everything).
    ///
    /// `held` names, per path, the versions whose content the device already has: its last word
    /// from the cloud about that document and its own versions not yet acknowledged (an upload
    /// whose answer a crash or a cut link lost may well have been saved). A changed document
    /// whose current version or conflict version is held comes back without that content
    /// (`.unavailable`): its metadata still flows, but a device is never sent again a version it
    /// uploaded or downloaded itself, across restarts too. Like an HTTP `If-None-Match`; an empty
    /// container holds nothing and gets everything.
    case fetch(since: UInt64, held: [String: HeldVersions] = [:])
    /// Upload a document version (a save, append, delete, merge or conflict copy). Boxed: an
    /// upload is ~150 bytes, and inline it made every request, engine action and queued event
    /// of every service that wide, copied on each hop.
    indirect case upload(DocumentUpload)
    /// Mark the named conflict versions resolved and remove them, keeping the current version
    /// (`lastWriterWins`, and `keepBoth` once its copies are saved).
    case resolve(path: String, resolves: [WriteID])
    /// Make a conflict version current, keeping its write, and remove the named others
    /// (`NSFileVersion.replaceItem(at:)`, a document app's choice). Answered with `resolved`.
    /// Boxed like `upload`, so the request stays narrow.
    indirect case replace(DocumentReplacement)

    /// Bytes on the wire that count toward transfer time: the uploaded content.
    public var transferBytes: Int64 {
        switch self {
        case .fetch, .resolve, .replace: return 0
        case .upload(let upload): return upload.version.body.sizeBytes
        }
    }
}
