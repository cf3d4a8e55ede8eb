import SyncLabProtocol

/// A device's copy of one document in its local ubiquity container (durable).
struct LocalDocument: Sendable {
    var path: String
    /// The version the app shows (content or a tombstone); nil when the device never had one.
    var shown: DocumentVersion?
    /// Local versions not yet acknowledged by the cloud, oldest first. The last one is what the
    /// next upload carries; the others fold into it as its chain.
    var pending: [DocumentVersion] = []
    /// The cloud version the pending edits were made on. A version downloaded while edits are
    /// pending does not move it: the cloud decides when the upload arrives.
    var base: WriteID?
    /// The cloud's state as last heard (fetch or upload reply).
    var cloud: DocumentState?
    /// A merge among `pending` that resolves conflict versions, to send with the upload.
    var pendingResolution: DocumentResolution?
    /// Conflict versions to mark resolved with a `resolve` request (`lastWriterWins`, `keepBoth`).
    var pendingResolve: [WriteID]?
    /// A conflict version the app chose to make current (`replaceItem`), to send as a `replace`
    /// request; sent like `pendingResolve`, once the copies are up. The device shows the chosen
    /// version when the cloud's answer says it is current.
    var pendingReplacement: DocumentReplacement?
    /// `keepBoth` copies that must reach the cloud (or be refused for the storage quota, then
    /// kept pending) before the resolve (or replace) request goes.
    var awaitingCopies: [String] = []
    /// The conflict set (current plus conflict version ids, sorted) the app's policy last ran for.
    var handledConflicts: [WriteID] = []
    /// Pending writes already reported as rejected for the storage quota (once per write).
    var reportedRejections: [WriteID] = []
    /// The last upload failed with `quotaExceeded`; retried when space may have freed.
    var quotaBlocked = false

    init(path: String) { self.path = path }

    /// What the app sees: the content, or `.absent` for a deleted or never-seen document.
    var visibleValue: ItemValue { shown?.body.content.map { .document($0) } ?? .absent }
}
