import SyncLabKernel
import SyncLabProtocol

/// Documents in conflict (SPEC §4.2): the device shows the conflict and asks its app, which
/// answers in NSFileVersion terms (`DocumentAppResolution`). The built-in policies are apps too
/// (SyncLabApps' `BuiltInApps`), asked here inside the engine's step; a team's app is asked by
/// its host after the step (the `inConflict` notification, answered with `resolveForApp`).
///
/// Everything a built-in app decides comes from the cloud's state alone (versions, their
/// authors, dates, ordinals and ancestry), never from the device running it, so devices that
/// resolve the same conflict at once produce the same content and the same copy names.
extension DocumentEngine {
    mutating func runPolicyIfNeeded(path: String, _ context: inout EngineContext) {
        guard var document = state.documents[path], let cloud = document.cloud else { return }
        guard cloud.inConflict else {
            if !document.handledConflicts.isEmpty {
                document.handledConflicts = []
                state.documents[path] = document
                context.emit(.notify(AppNotification(store: .documents, reason: "conflictResolved", items: [path])))
            }
            return
        }
        // Local edits not yet uploaded meet the conflict when they arrive; run the policy after.
        guard document.pending.isEmpty, case .content = cloud.current.body else { return }
        let conflictSet = ([cloud.current.id] + cloud.conflicts.map(\.version.id)).sorted()
        guard conflictSet != document.handledConflicts else { return }
        document.handledConflicts = conflictSet
        state.documents[path] = document

        let policyName = identity.documentsApp ?? identity.settings.documents.conflict.rawValue
        context.observe(.conflictShown(item: item(path), writes: [cloud.current.id] + cloud.conflicts.map(\.version.id),
                                       detail: "\(path) is in conflict (\(cloud.conflicts.count) other version\(cloud.conflicts.count == 1 ? "" : "s")); policy \(policyName)",
                                       resolvedBy: ConflictResolver(policyName)))
        context.emit(.notify(AppNotification(store: .documents, reason: "inConflict", items: [path])))
        context.log("conflict", [("path", path), ("versions", "\(conflictSet.count)"), ("policy", policyName)])
        // A team's app hears of it from its host (the `inConflict` notification) and answers
        // with `resolveForApp`; a built-in app answers now.
        guard identity.documentsApp == nil, var app = builtInApp else { return }
        builtInApp = nil
        let resolution = app.resolve(path: path, conflict: cloud)
        builtInApp = app
        carryOut(resolution, path: path, cloud, &context)
    }

    /// The copy's name, `conflictCopyPath` with the cloud's ordinal, moved on past any name this
    /// device already shows with other content: a copy is a new document and must never be
    /// written over one the user has (SPEC §4.2). A name holding the same content is the copy
    /// another device already made.
    func freeCopyPath(_ path: String, content: DocumentContent, authorName: String, ordinal: Int) -> String {
        var ordinal = ordinal
        while true {
            let candidate = Self.conflictCopyPath(path, authorName: authorName, ordinal: ordinal)
            guard let occupant = state.documents[candidate]?.shown?.body.content, occupant != content else { return candidate }
            ordinal += 1
        }
    }

    /// `NAME (conflict DEVICE N).EXT`: EXT after the last dot of the file name, none if it has no dot.
    /// The copy goes beside the document: a `/` in the device's name is written `:`, as macOS
    /// stores a `/` typed in a file name, so a device called `Work/iPad` makes no folder (and
    /// `a//b` no path the scenario format refuses).
    public static func conflictCopyPath(_ path: String, authorName: String, ordinal: Int) -> String {
        var directory = "", fileName = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            directory = String(path[...slash])
            fileName = path[path.index(after: slash)...]
        }
        let device = String(authorName.map { $0 == "/" ? ":" : $0 })
        let suffix = " (conflict \(device) \(ordinal))"
        guard let dot = fileName.lastIndex(of: ".") else { return directory + fileName + suffix }
        return directory + fileName[..<dot] + suffix + fileName[dot...]
    }

    /// Saves a conflict version's content as a new document (a derived write whose parent is the version).
    mutating func saveCopy(_ copyPath: String, content: DocumentContent, of version: DocumentVersion, _ context: inout EngineContext) {
        var copy = state.documents[copyPath] ?? LocalDocument(path: copyPath)
        // Another device's identical copy already arrived: nothing to add.
        if copy.shown?.body.content == content { return }
        let write = nextDerivedWrite(&context)
        // Only ever written where nothing with content is shown (`freeCopyPath`): its one parent
        // is the version it copies.
        let parents = [version.id]
        let copyVersion = DocumentVersion(id: write, parents: parents, modifiedAt: context.now, author: identity.device,
                                          authorName: identity.deviceName, body: .content(content))
        if copy.pending.isEmpty { copy.base = copy.cloud?.current.id }
        copy.pending.append(copyVersion)
        copy.shown = copyVersion
        state.documents[copyPath] = copy
        context.observe(.derivedWrite(write: write, item: item(copyPath), value: .document(content), parents: parents,
                                      why: "conflict copy of \(version.authorName)'s version"))
        context.observe(.visible(item: item(copyPath), value: .document(content), write: write, cause: .resolution))
    }

    /// Queues `content` as a new version made of every version of the conflict (all its
    /// parents), carrying the resolution of `resolves`. `why(n)` explains it for n versions.
    mutating func queueMerged(path: String, _ cloud: DocumentState, content: DocumentContent, resolves: [WriteID],
                              why: (Int) -> String, _ context: inout EngineContext) {
        guard var document = state.documents[path] else { return }
        let write = nextDerivedWrite(&context)
        let parents = [cloud.current.id] + cloud.conflicts.map(\.version).sorted(by: DocumentVersion.mergeOrder).map(\.id)
        let merged = DocumentVersion(id: write, parents: parents, modifiedAt: context.now, author: identity.device,
                                     authorName: identity.deviceName, body: .content(content))
        document.base = cloud.current.id
        document.pending.append(merged)
        document.shown = merged
        document.pendingResolution = DocumentResolution(merged: write, resolves: resolves)
        state.documents[path] = document
        context.observe(.derivedWrite(write: write, item: item(path), value: .document(content), parents: parents, why: why(parents.count)))
        context.observe(.visible(item: item(path), value: .document(content), write: write, cause: .resolution))
    }

    /// The merge of a conflicted document: the current version (the winner, first in conflict
    /// blocks) merged pairwise with each conflict version in (modification date, id) order, each
    /// against the common ancestor found through the cloud's ancestry (none: the empty document).
    /// Nil when any version is not text (synthetic content cannot be merged by lines).
    public static func mergedContent(_ cloud: DocumentState) -> DocumentContent? {
        guard case .content(.text(var text)) = cloud.current.body else { return nil }
        let others = cloud.conflicts.map(\.version).sorted(by: DocumentVersion.mergeOrder)
        guard others.allSatisfy({ if case .content(.text) = $0.body { true } else { false } }) else { return nil }
        var graph: [WriteID: DocumentVersion] = [:]
        for version in cloud.ancestry { graph[version.id] = version }
        for version in others { graph[version.id] = version }
        graph[cloud.current.id] = cloud.current
        var merged: Set<WriteID> = [cloud.current.id]
        for other in others {
            guard case .content(.text(let otherText)) = other.body else { return nil }
            let ancestor = commonAncestorText(merged, other.id, graph)
            text = Diff3.merge(base: ancestor, ours: text, theirs: otherText, oursLabel: cloud.current.authorName, theirsLabel: other.authorName).text
            merged.insert(other.id)
        }
        return .text(text)
    }

    /// The text of the best common ancestor of the versions `left` and the version `right`: a
    /// common ancestor with known content that is not an ancestor of another such, the latest by
    /// (modification date, id) if several. A tombstone or no ancestor is the empty document.
    static func commonAncestorText(_ left: Set<WriteID>, _ right: WriteID, _ graph: [WriteID: DocumentVersion]) -> String {
        func ancestors(_ starts: [WriteID], inclusive: Bool) -> Set<WriteID> {
            var seen: Set<WriteID> = []
            var stack = inclusive ? starts : starts.flatMap { graph[$0]?.parents ?? [] }
            while let id = stack.popLast() {
                guard seen.insert(id).inserted else { continue }
                stack.append(contentsOf: graph[id]?.parents ?? [])
            }
            return seen
        }
        let common = ancestors(left.sorted(), inclusive: true).intersection(ancestors([right], inclusive: true))
        let candidates = common.filter { graph[$0].map { $0.body != .unavailable } ?? false }
        var shadowed: Set<WriteID> = []
        for candidate in candidates.sorted() { shadowed.formUnion(ancestors([candidate], inclusive: false)) }
        let best = candidates.subtracting(shadowed).compactMap { graph[$0] }.max(by: DocumentVersion.mergeOrder)
        guard let best, case .content(.text(let text)) = best.body else { return "" }
        return text
    }
}
