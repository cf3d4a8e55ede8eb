import SyncLabKernel
import SyncLabProtocol

/// The ubiquity-container service (SPEC §4.2): versions, conflicts, resolutions, storage quota.
///
/// Conflict rule: an upload that descends from the current version (its base, or its folded
/// chain and parent links, reach the current version) becomes current. Otherwise it is a
/// conflict: the version with the later modification date (or the later arrival, with
/// `winner: arrival`) becomes current and the other an unresolved conflict version, unless both
/// have the same content. Deletes are tombstones; an edit concurrent with a delete wins and
/// restores the document. Every request is idempotent: a version the cloud already knows is
/// acknowledged again without a new conflict, and a resolution whose versions are already
/// resolved is ignored.
public struct DocumentService: Sendable {
    let configuration: CloudConfiguration
    /// Containers by account (lookups only).
    var containers: [AccountID: DocumentContainer] = [:]
    /// Versions visited walking ancestries, over the service's life: the work count tests hold
    /// to the number of uploads (an upload costs what it must look at, not the whole history).
    package private(set) var versionsWalked = 0

    public init(configuration: CloudConfiguration) { self.configuration = configuration }

    public mutating func handle(_ request: RequestEnvelope, _ body: DocumentRequest, _ context: inout CloudContext, storage: inout StorageLedger) {
        // Taken out, not copied, so mutating it does not duplicate the container (copy-on-write).
        var container = containers.removeValue(forKey: request.account) ?? DocumentContainer()
        switch body {
        case .fetch(let since, let held):
            var states: [DocumentState] = []
            // Only what changed since the cursor (a change log), not every document sorted.
            for path in container.pathsChanged(since: since) {
                guard let document = container.documents[path], document.changedAt > since else { continue }
                var state = document.state
                // The device has these versions' content already: send what changed around them only.
                if let versions = held[path] {
                    if versions.contains(state.current.id) { state.current = state.current.stub }
                    for index in state.conflicts.indices where versions.contains(state.conflicts[index].version.id) {
                        state.conflicts[index].version = state.conflicts[index].version.stub
                    }
                }
                states.append(state)
            }
            context.log("docDownload", [("documents", "\(states.count)"), ("since", "\(since)"), ("cursor", "\(container.sequence)")])
            context.respond(to: request, .documents(.changes(states: states, cursor: container.sequence)))
        case .upload(let body):
            upload(body, request, &container, &context, &storage)
        case .resolve(let path, let resolves):
            resolve(path: path, resolves: resolves, request, &container, &context, &storage)
        case .replace(let replacement):
            replace(replacement, request, &container, &context, &storage)
        }
        containers[request.account] = container
    }

    // MARK: Uploads

    private mutating func upload(_ upload: DocumentUpload, _ request: RequestEnvelope, _ container: inout DocumentContainer,
                        _ context: inout CloudContext, _ storage: inout StorageLedger) {
        let version = upload.version
        let item = ItemKey(account: request.account, store: .documents, name: upload.path)
        func reply(_ outcome: DocumentUploadOutcome, _ state: DocumentState?) {
            context.log("docUpload", [("path", upload.path), ("version", Self.name(version)),
                ("base", upload.base.map(Self.name) ?? "none"), ("outcome", outcome.rawValue)])
            context.respond(to: request, .documents(.uploaded(version: version.id, outcome: outcome, state: state)))
        }

        guard container.documents[upload.path] != nil else {
            // A new document (or a delete of one the cloud never had).
            guard case .content = version.body else { return reply(.alreadyDeleted, nil) }
            guard storage.fits(request.account, deltaBytes: version.body.sizeBytes) else {
                storage.noteRefusal(request.account)
                return reply(.quotaExceeded, nil)
            }
            var created = StoredDocument(path: upload.path, current: version, changedAt: 0)
            for stub in upload.chain { created.remember(stub.stub) }
            storage.charge(request.account, deltaBytes: created.storedBytes)
            commit(created, request, &container, &context)
            return reply(.accepted, created.state)
        }
        // The document is taken out of the container while it changes, so adding to its history
        // does not copy the history (copy-on-write) at every upload: that was quadratic in the
        // saves of one document. What the reply or a refusal needs of the old one is kept apart.
        guard var next = container.documents.removeValue(forKey: upload.path) else { preconditionFailure("checked above") }
        func putBack(_ stored: StoredDocument) { container.documents[upload.path] = stored }
        // A retry of a version the cloud already has.
        if next.history[version.id] != nil { putBack(next); return reply(.alreadyApplied, next.state) }

        var resolvedNow: [WriteID] = []
        if let resolution = upload.resolution {
            resolvedNow = resolution.resolves.filter { next.isConflict($0) }
            if resolvedNow.isEmpty && version.id == resolution.merged { putBack(next); return reply(.repeatResolution, next.state) }
        }
        let current = next.current
        let previousConflicts = next.conflicts
        let previousBytes = next.storedBytes
        if !resolvedNow.isEmpty { next.conflicts.removeAll { resolvedNow.contains($0.version.id) } }
        var undo: [(id: WriteID, previous: DocumentVersion?)] = []
        for stub in upload.chain { next.remember(stub.stub, undo: &undo) }
        next.remember(version, undo: &undo)
        /// Was `id` in the history before this upload?
        let added = Set(undo.filter { $0.previous == nil }.map(\.id))
        func knownBefore(_ id: WriteID) -> DocumentVersion? { added.contains(id) ? nil : next.history[id] }
        let descends = upload.base == current.id || next.descends(version, from: current.id, walked: &versionsWalked)
        // Conflict versions this upload was built on are superseded by it.
        if !next.conflicts.isEmpty {
            let ancestry = next.ancestors(of: version, walked: &versionsWalked)
            next.conflicts.removeAll { ancestry.contains($0.version.id) }
        }

        // What this upload decides (conflicts, last-writer-wins) is told only if it is kept: a
        // refusal for the storage quota changes nothing, so its retries would count one
        // conflict per attempt and use up a conflict copy number each (`takeBackOrdinal`).
        let (actionsBefore, logsBefore) = (context.actions.count, context.logs.count)
        var ordinalTaken: String?
        var outcome: DocumentUploadOutcome
        switch (current.body, version.body) {
        case (_, .unavailable):
            preconditionFailure("an upload always carries content or a tombstone: \(upload.path) \(version.id)")
        case (.deleted, .deleted):
            outcome = .alreadyDeleted
        case (_, .deleted) where descends && next.conflicts.isEmpty:
            // NSFileVersion's versions go with the file.
            next.current = version
            outcome = .accepted
        case (_, .deleted) where descends:
            // Conflict versions the delete was not built on are edits concurrent with it: the
            // edit wins and the document is restored (SPEC §4.2), with the newest of them (by
            // the winner rule) as current; the others stay conflict versions.
            let restoring = next.conflicts.indices.max { lhs, rhs in
                let (a, b) = (next.conflicts[lhs].version, next.conflicts[rhs].version)
                switch configuration.settings.documents.winner {
                case .modificationDate: return a.modifiedAt != b.modifiedAt ? a.modifiedAt < b.modifiedAt : lhs < rhs
                case .arrival: return lhs < rhs
                }
            }!
            let edit = next.conflicts.remove(at: restoring).version
            next.current = edit
            outcome = .deleteLost
            context.observe(.conflictDetected(item: item, writes: [edit.id, version.id],
                detail: "delete \(Self.name(version)) of \(upload.path) had not seen conflict version \(Self.name(edit)); the edit wins and the document is restored"))
            context.log("conflict", [("path", upload.path), ("restoredBy", Self.name(edit)), ("delete", Self.name(version))])
        case (_, .deleted):
            outcome = .deleteLost
            context.observe(.conflictDetected(item: item, writes: [current.id, version.id],
                detail: "delete \(Self.name(version)) of \(upload.path) met concurrent edit \(Self.name(current)); the edit stays"))
            context.log("conflict", [("path", upload.path), ("kept", Self.name(current)), ("delete", Self.name(version))])
        case (.deleted, .content) where descends:
            next.current = version
            outcome = .accepted
        case (.deleted, .content):
            next.current = version
            outcome = .accepted
            // Only an edit of a version this document had is concurrent with its delete; a fresh
            // document at a path deleted long ago is just a new document.
            if next.ancestors(of: version, walked: &versionsWalked).contains(where: { knownBefore($0) != nil }) {
                outcome = .restored
                context.observe(.conflictDetected(item: item, writes: [version.id, current.id],
                    detail: "edit \(Self.name(version)) restored \(upload.path), deleted concurrently by \(Self.name(current))"))
                context.log("conflict", [("path", upload.path), ("restoredBy", Self.name(version)), ("delete", Self.name(current))])
            }
        case (.content, .content) where descends:
            next.current = version
            outcome = .accepted
        case (.content(let currentContent), .content(let incomingContent)):
            if currentContent == incomingContent {
                outcome = .identical
            } else {
                let incomingWins: Bool
                switch configuration.settings.documents.winner {
                case .modificationDate: incomingWins = version.modifiedAt >= current.modifiedAt
                case .arrival: incomingWins = true
                }
                let (winner, loser) = incomingWins ? (version, current) : (current, version)
                next.current = winner
                next.conflicts.append(DocumentConflict(version: loser, ordinal: container.nextOrdinal(path: upload.path, authorName: loser.authorName)))
                ordinalTaken = loser.authorName
                outcome = incomingWins ? .conflictWon : .conflictLost
                // Equal dates cannot order the versions: the later arrival (the incoming one)
                // wins, as SPEC §4.1 says of equal KVS timestamps, and the explanations say so.
                let tied = configuration.settings.documents.winner == .modificationDate && version.modifiedAt == current.modifiedAt
                let setting = configuration.settings.documents.winner.rawValue
                let rule = tied ? "\(setting) (tie: later arrival)" : setting
                context.observe(.conflictDetected(item: item, writes: [winner.id, loser.id],
                    detail: "\(Self.name(version)) was saved on \(upload.base.map { knownBefore($0).map(Self.name) ?? Self.name($0) } ?? "no version") but the current version is \(Self.name(current)); \(Self.name(winner)) is current by \(rule), \(Self.name(loser)) is kept as a conflict version"))
                context.observe(.lastWriterWins(item: item, chosen: winner.id, over: loser.id, rule: rule))
                context.log("conflict", [("path", upload.path), ("current", Self.name(winner)), ("conflictVersion", Self.name(loser)), ("rule", setting)])
            }
        case (.unavailable, _):
            preconditionFailure("a stored current version always has content or is a tombstone: \(upload.path)")
        }

        let delta = next.storedBytes - previousBytes
        guard !next.storedBytesOverflow, storage.fits(request.account, deltaBytes: delta) else {
            storage.noteRefusal(request.account)
            // Refused: the document is as it was, its history included (a retry is not a repeat),
            // and nothing it decided happened.
            context.actions.removeSubrange(actionsBefore...)
            context.logs.removeSubrange(logsBefore...)
            if let author = ordinalTaken { container.takeBackOrdinal(path: upload.path, authorName: author) }
            next.takeBack(undo)
            next.current = current
            next.conflicts = previousConflicts
            next.refreshAncestry()
            putBack(next)
            return reply(.quotaExceeded, next.state)
        }
        storage.charge(request.account, deltaBytes: delta)
        if !resolvedNow.isEmpty {
            context.log("resolved", [("path", upload.path), ("versions", resolvedNow.map(Self.name).joined(separator: ",")), ("by", Self.name(version))])
        }
        next.refreshAncestry()
        if next.current.id != current.id || next.conflicts != previousConflicts {
            commit(next, request, &container, &context)
        } else {
            putBack(next)
        }
        reply(outcome, next.state)
    }

    // MARK: Resolutions

    private func resolve(path: String, resolves: [WriteID], _ request: RequestEnvelope, _ container: inout DocumentContainer,
                         _ context: inout CloudContext, _ storage: inout StorageLedger) {
        guard var document = container.documents[path] else {
            context.respond(to: request, .documents(.resolved(path: path, applied: false, state: nil)))
            return
        }
        let open = resolves.filter { document.isConflict($0) }
        guard !open.isEmpty else {
            context.log("resolved", [("path", path), ("versions", resolves.map(Self.name).joined(separator: ",")), ("repeat", "true")])
            context.respond(to: request, .documents(.resolved(path: path, applied: false, state: document.state)))
            return
        }
        let before = document.storedBytes
        document.conflicts.removeAll { open.contains($0.version.id) }
        storage.charge(request.account, deltaBytes: document.storedBytes - before)
        context.log("resolved", [("path", path), ("versions", open.map(Self.name).joined(separator: ",")), ("kept", Self.name(document.current))])
        document.refreshAncestry()
        commit(document, request, &container, &context)
        context.respond(to: request, .documents(.resolved(path: path, applied: true, state: document.state)))
    }

    /// `NSFileVersion.replaceItem(at:)` carried to the cloud: the chosen conflict version becomes
    /// current with its own write (no new version), the replaced current version goes, and so do
    /// the named conflict versions. Applied only if the document is still as the app saw it (the
    /// replaced version current, the chosen one an unresolved conflict version): a version another
    /// device resolved away can no longer be made current (as `replaceItem` fails for a version
    /// that is gone), and a current version saved since must not be overwritten unseen. Then
    /// nothing changes and the answer (`applied: false`) carries the state, which the device's
    /// app is shown again if still in conflict. Storage only shrinks: the chosen version was
    /// already stored as a conflict version.
    private func replace(_ replacement: DocumentReplacement, _ request: RequestEnvelope, _ container: inout DocumentContainer,
                         _ context: inout CloudContext, _ storage: inout StorageLedger) {
        let path = replacement.path
        guard var document = container.documents[path] else {
            context.respond(to: request, .documents(.resolved(path: path, applied: false, state: nil)))
            return
        }
        guard document.current.id == replacement.replacing,
              let chosen = document.conflicts.first(where: { $0.version.id == replacement.chosen })?.version else {
            context.log("replaced", [("path", path), ("version", document.history[replacement.chosen].map(Self.name) ?? Self.name(replacement.chosen)),
                                     ("refused", "the document changed"),
                                     ("current", Self.name(document.current))])
            context.respond(to: request, .documents(.resolved(path: path, applied: false, state: document.state)))
            return
        }
        let before = document.storedBytes
        let replaced = document.current
        let removed = document.conflicts.map(\.version).filter { replacement.resolves.contains($0.id) }
        document.current = chosen
        document.conflicts.removeAll { $0.version.id == chosen.id || replacement.resolves.contains($0.version.id) }
        storage.charge(request.account, deltaBytes: document.storedBytes - before)
        context.log("replaced", [("path", path), ("version", Self.name(chosen)), ("replaced", Self.name(replaced)),
                                 ("removed", removed.map(Self.name).joined(separator: ","))])
        document.refreshAncestry()
        commit(document, request, &container, &context)
        context.respond(to: request, .documents(.resolved(path: path, applied: true, state: document.state)))
    }

    // MARK: Bookkeeping

    /// Stores a changed document under a new change sequence and pushes to the account's devices.
    private func commit(_ document: StoredDocument, _ request: RequestEnvelope, _ container: inout DocumentContainer, _ context: inout CloudContext) {
        var document = document
        container.sequence += 1
        document.changedAt = container.sequence
        container.commit(document)
        context.emit(.pushAccount(PushNotification(store: .documents, account: request.account), except: request.device))
    }

    /// `d3:7` (or `d3:m2` for a derived write) for trace lines, when the author's name is unknown.
    static func name(_ write: WriteID) -> String {
        "d\(write.device.index):\(write.derived ? "m" : "")\(write.sequence)"
    }

    /// `A:7` (or `A:m2`), the trace's own spelling, using the author name the version carries.
    static func name(_ version: DocumentVersion) -> String {
        version.author == version.id.device
            ? "\(version.authorName):\(version.id.derived ? "m" : "")\(version.id.sequence)" : name(version.id)
    }

    /// Live documents with their content and the version that produced it, sorted by item.
    public func finalView(account: AccountID) -> [ViewEntry] {
        guard let container = containers[account] else { return [] }
        var view: [ViewEntry] = []
        for path in container.sortedPaths {
            guard let document = container.documents[path], let content = document.current.body.content else { continue }
            view.append(ViewEntry(item: ItemKey(account: account, store: .documents, name: path), value: .document(content), write: document.current.id))
        }
        return view
    }

    /// The unresolved conflict versions of the account's documents: writes that survive apart
    /// from final values.
    public func survivingWrites(account: AccountID) -> [WriteID] {
        guard let container = containers[account] else { return [] }
        var writes: [WriteID] = []
        for path in container.sortedPaths {
            for conflict in container.documents[path]?.conflicts ?? [] { writes.append(conflict.version.id) }
        }
        return writes
    }

    /// The cloud's state of one document, for tests and reports.
    public func state(account: AccountID, path: String) -> DocumentState? {
        containers[account]?.documents[path]?.state
    }
}
