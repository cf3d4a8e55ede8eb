import SyncLabKernel
import SyncLabProtocol

extension DocumentEngine {
    /// The next request the engine could send, ignoring the network: a due fetch is handled by
    /// `pump` before this.
    enum Work {
        case upload(path: String)
        case resolve(path: String)
    }

    /// Uploads by path (not blocked on the quota), then resolutions whose copies are all uploaded
    /// or blocked on the storage quota. A copy the cloud refused for space is safe on the device
    /// (durable, pending, retried when space frees); holding the resolve back for it would keep
    /// the conflict version whose removal is what frees that space, and neither would ever go.
    ///
    /// The first path in UTF-8 order of each kind is the least candidate, so one pass in any
    /// order finds it without sorting every path (this runs after every event, through
    /// `isQuiescent`); taking the least keeps the dictionary's order out of the answer.
    func nextWork() -> Work? {
        var upload: String?, resolve: String?
        func precedes(_ path: String, _ best: String?) -> Bool { best.map { path.utf8.lexicographicallyPrecedes($0.utf8) } ?? true }
        for (path, document) in state.documents {
            if !document.pending.isEmpty, !document.quotaBlocked {
                if precedes(path, upload) { upload = path }
            } else if upload == nil, document.pendingResolve != nil || document.pendingReplacement != nil, precedes(path, resolve),
                      document.awaitingCopies.allSatisfy({ state.documents[$0].map { $0.pending.isEmpty || $0.quotaBlocked } ?? true }) {
                resolve = path
            }
        }
        if let upload { return .upload(path: upload) }
        return resolve.map { .resolve(path: $0) }
    }

    /// Sends the next request if the engine may: online, signed in, nothing in flight, no backoff.
    mutating func pump(_ context: inout EngineContext) {
        guard online, inFlight == nil, !waitingForRetry, let account = state.account, account == state.dataAccount else { return }
        if needsFetch {
            needsFetch = false
            let requestID = nextRequestID()
            inFlight = .fetch(requestID: requestID, account: account)
            context.emit(.send(requestID: requestID, .documents(.fetch(since: state.cursor, held: heldVersions()))))
            return
        }
        switch nextWork() {
        case .upload(let path)?:
            guard let document = state.documents[path], let version = document.pending.last else { return }
            let sent = document.pending.map(\.id)
            let resolution = document.pendingResolution.flatMap { sent.contains($0.merged) ? $0 : nil }
            let upload = DocumentUpload(path: path, version: version, chain: document.pending.dropLast().map(\.stub),
                                        base: document.base, resolution: resolution)
            let requestID = nextRequestID()
            inFlight = .upload(requestID: requestID, account: account, path: path, sent: sent)
            context.log("docUpload", [("path", path), ("versions", "\(sent.count)"),
                ("sizeBytes", "\(version.body.sizeBytes)"), ("resolves", "\(resolution?.resolves.count ?? 0)")])
            context.emit(.send(requestID: requestID, .documents(.upload(upload))))
        case .resolve(let path)?:
            let request: DocumentRequest
            if let replacement = state.documents[path]?.pendingReplacement {
                request = .replace(replacement)
            } else if let resolves = state.documents[path]?.pendingResolve {
                request = .resolve(path: path, resolves: resolves)
            } else {
                return
            }
            let requestID = nextRequestID()
            inFlight = .resolve(requestID: requestID, account: account, path: path)
            context.emit(.send(requestID: requestID, .documents(request)))
        case nil:
            return
        }
    }

    /// Per path, the versions whose content this device keeps: the cloud's current version as
    /// last heard, and its own versions the cloud has not acknowledged. A fetch names them so
    /// the cloud does not send that content again: its own upload coming back (even one whose
    /// answer a crash lost: the pending versions are durable), or a document changed only in
    /// its conflict versions.
    ///
    /// - Complexity: O(1): kept up to date as documents change (`DocumentTable`).
    func heldVersions() -> [String: HeldVersions] { state.documents.held }

    /// Arms the retry timer for what is left of the cloud's last `retryAfter` (kept durably), if
    /// anything: after a restart or a reconnect nothing goes out before it.
    mutating func honourRetryAfter(_ context: inout EngineContext) {
        guard !waitingForRetry, let wait = state.retryAfter.remaining(now: context.now) else { return }
        waitingForRetry = true
        context.emit(.setTimer(Self.retryTimer, after: wait))
        context.log("retryScheduled", [("reason", "retryAfter"), ("after", wait.description)])
    }

    mutating func nextRequestID() -> UInt64 {
        state.lastRequestID += 1
        return state.lastRequestID
    }

    func nextDerivedWrite(_ context: inout EngineContext) -> WriteID { context.nextDerivedWrite(on: identity.device) }

    // MARK: Responses

    mutating func handleResponse(_ envelope: ResponseEnvelope, _ context: inout EngineContext) {
        guard let flight = inFlight, flight.requestID == envelope.requestID else { return }
        inFlight = nil
        if inFlightIsStale {
            inFlightIsStale = false
            context.log("droppedResponse", [("why", "account switched")])
            settleUploadAtSwitch(envelope.result, &context)
            return
        }
        switch envelope.result {
        case .failed(let error):
            if case .fetch = flight { needsFetch = true }
            context.log("requestFailed", [("error", error.name)])
            if online {
                state.retryAfter.note(error.retryAfter, now: context.now)
                waitingForRetry = true
                context.emit(.setTimer(Self.retryTimer, after: backoff.nextDelay(retryAfter: error.retryAfter)))
            }
        case .ok(.documents(let body)):
            backoff.reset()
            // A reply for an account the device has left must not show that account's data.
            guard flight.account == state.dataAccount else { return }
            switch body {
            case .changes where state.account == nil:
                // Signed out since the fetch went out: in no account, the container takes none
                // of the account's news (SPEC §3.4), as the key-value store; the cursor stays and
                // the next sign-in fetches again.
                needsFetch = true
                context.log("droppedResponse", [("why", "signed out")])
            case .changes(let states, let cursor):
                for fetched in states { adopt(withHeldContent(fetched), &context) }
                state.cursor = max(state.cursor, cursor)
                if !states.isEmpty { clearQuotaBlocks() }
            case .uploaded(let version, let outcome, let cloudState):
                guard case .upload(_, _, let path, let sent) = flight else { return }
                uploaded(path: path, sent: sent, version: version, outcome: outcome, cloudState, &context)
            case .resolved(let path, let applied, let cloudState):
                state.documents[path]?.pendingResolve = nil
                state.documents[path]?.pendingReplacement = nil
                state.documents[path]?.awaitingCopies = []
                context.log("resolved", [("path", path), ("applied", "\(applied)")])
                if let cloudState { adopt(cloudState, &context) }
            }
        case .ok:
            return
        }
    }

    mutating func uploaded(path: String, sent: [WriteID], version: WriteID, outcome: DocumentUploadOutcome,
                           _ cloudState: DocumentState?, _ context: inout EngineContext) {
        guard var document = state.documents[path] else { return }
        if outcome == .quotaExceeded {
            // Only what the cloud refused waits for space: a version saved while the upload was
            // on the wire (a delete, a smaller edit) was never tried, and goes now.
            document.quotaBlocked = document.pending.allSatisfy { sent.contains($0.id) }
            let newly = sent.filter { !document.reportedRejections.contains($0) }
            for write in newly {
                context.observe(.rejected(write: write, item: item(path), error: "quotaExceeded", limit: "storage"))
            }
            if !newly.isEmpty { context.emit(.notify(AppNotification(store: .documents, reason: "error", items: [path]))) }
            document.reportedRejections += newly
            if let cloudState { document.cloud = cloudState }
            state.documents[path] = document
            context.log("quotaExceeded", [("path", path), ("versions", "\(sent.count)")])
            context.emit(.setTimer(Self.quotaRetryTimer, after: quotaBackoff.nextDelay()))
            return
        }
        quotaBackoff.reset()
        let remaining = document.pending.filter { !sent.contains($0.id) }
        let adopted: Bool
        switch outcome {
        case .accepted, .alreadyApplied, .conflictWon, .restored: adopted = true
        case .conflictLost, .deleteLost, .alreadyDeleted, .identical, .repeatResolution, .quotaExceeded: adopted = false
        }
        if remaining.isEmpty || adopted || outcome == .conflictLost {
            // The cloud has the sent versions (current, conflict version or history).
            document.pending = remaining
            if adopted && !remaining.isEmpty { document.base = version }
        } else {
            // The cloud kept another version and dropped ours: later local edits still descend
            // from it, so it stays in their chain; it no longer resolves anything.
            document.pendingResolution = nil
        }
        if let resolution = document.pendingResolution, sent.contains(resolution.merged) { document.pendingResolution = nil }
        document.reportedRejections.removeAll { sent.contains($0) }
        state.documents[path] = document
        context.log("uploaded", [("path", path), ("outcome", outcome.rawValue)])
        if let cloudState { adopt(cloudState, &context) }
    }

    /// A fetched state whose current or conflict versions came without content (the fetch said
    /// this device holds them) with the content put back from the device's own copies: the
    /// cloud's current version as last heard, or a pending version of its own. Only one request
    /// is on the wire at a time, so the copies the fetch named are still the ones kept.
    func withHeldContent(_ fetched: DocumentState) -> DocumentState {
        var restored = fetched
        if fetched.current.body == .unavailable { restored.current = heldCopy(of: fetched.current, path: fetched.path) }
        for index in fetched.conflicts.indices where fetched.conflicts[index].version.body == .unavailable {
            restored.conflicts[index].version = heldCopy(of: fetched.conflicts[index].version, path: fetched.path)
        }
        return restored
    }

    /// The device's own copy of a version the cloud left out of a fetch reply.
    func heldCopy(of stub: DocumentVersion, path: String) -> DocumentVersion {
        let document = state.documents[path]
        if let held = document?.cloud?.current, held.id == stub.id, held.body != .unavailable { return held }
        if let own = document?.pending.first(where: { $0.id == stub.id }) { return own }
        preconditionFailure("the cloud left out content this device does not hold: \(path) \(stub.id)")
    }

    /// The answer (or the loss) of the upload that was on the wire at an account switch. Any
    /// outcome but a refusal means the old account's cloud took the versions (as current, as a
    /// conflict version, or into history), so nothing is lost; a refusal for the storage quota
    /// is reported as a rejection; a failed upload, or a crash before the answer, may never have
    /// been saved, and its versions are reported discarded.
    mutating func settleUploadAtSwitch(_ result: ResponseResult?, _ context: inout EngineContext) {
        guard !state.uploadAtSwitch.isEmpty, let item = state.uploadAtSwitchItem else { return }
        let writes = state.uploadAtSwitch
        state.uploadAtSwitch = []
        state.uploadAtSwitchItem = nil
        guard case .ok(.documents(.uploaded(_, let outcome, _)))? = result else {
            let why = result == nil ? "its upload's answer was lost in a crash" : "its upload failed"
            for write in writes {
                context.observe(.discarded(write: write, item: item, reason: "discarded at account switch (\(why))"))
            }
            context.log("uploadAtSwitchSettled", [("path", item.name), ("versions", "\(writes.count)"), ("outcome", "lost")])
            return
        }
        if outcome == .quotaExceeded {
            for write in writes {
                context.observe(.rejected(write: write, item: item, error: "quotaExceeded", limit: "storage"))
            }
        }
        context.log("uploadAtSwitchSettled", [("path", item.name), ("versions", "\(writes.count)"), ("outcome", outcome.rawValue)])
    }

    /// Takes in the cloud's state of a document. With no local edits pending, the app shows the
    /// cloud's current version; with edits pending, the device keeps showing its own edit.
    mutating func adopt(_ cloudState: DocumentState, _ context: inout EngineContext) {
        let path = cloudState.path
        var document = state.documents[path] ?? LocalDocument(path: path)
        document.cloud = cloudState
        acknowledgeFromCloud(&document, cloudState)
        // A replacement not sent yet whose document has changed (another device resolved it, or
        // saved): the cloud would refuse it, so it is not sent; the app sees the new state.
        if let replacement = document.pendingReplacement, cloudState.current.id != replacement.replacing
            || !cloudState.conflicts.contains(where: { $0.version.id == replacement.chosen }) {
            document.pendingReplacement = nil
            if document.pendingResolve == nil { document.awaitingCopies = [] }
            context.log("replaceDropped", [("path", path), ("why", "the document changed")])
        }
        if document.pending.isEmpty {
            let current = cloudState.current
            if document.shown?.id != current.id {
                let hadShown = document.shown != nil
                document.shown = current
                // A tombstone of a document this device never had changes nothing the app sees.
                if hadShown || document.visibleValue != .absent {
                    context.observe(.visible(item: item(path), value: document.visibleValue, write: current.id, cause: .fetch))
                    context.log("docDownload", [("path", path), ("sizeBytes", "\(current.body.sizeBytes)")])
                }
            }
            document.base = current.id
        }
        state.documents[path] = document
        runPolicyIfNeeded(path: path, &context)
    }

    /// Pending versions the cloud already has, as its current version or a conflict version,
    /// are acknowledged as an upload's answer would have acknowledged them: an upload whose
    /// answer a crash or a cut link lost was saved all the same, and sending it again would only
    /// move its bytes twice for an `alreadyApplied`. The versions before it in the chain went
    /// with it (an upload carries them as its ancestors).
    func acknowledgeFromCloud(_ document: inout LocalDocument, _ cloudState: DocumentState) {
        guard !document.pending.isEmpty else { return }
        let inCloud = [cloudState.current.id] + cloudState.conflicts.map(\.version.id)
        guard let last = document.pending.lastIndex(where: { inCloud.contains($0.id) }) else { return }
        let acknowledged = document.pending[...last].map(\.id)
        document.pending.removeFirst(last + 1)
        // Taken as current: later local edits build on it, as after an `accepted` answer. Kept
        // as a conflict version: the base stays, as after `conflictLost`.
        if acknowledged.last == cloudState.current.id, !document.pending.isEmpty { document.base = cloudState.current.id }
        if let resolution = document.pendingResolution, acknowledged.contains(resolution.merged) { document.pendingResolution = nil }
        document.reportedRejections.removeAll { acknowledged.contains($0) }
        document.quotaBlocked = false
    }
}
