import SyncLabKernel
import SyncLabProtocol

/// What a hosted document app decided about a conflict (SPEC §9), in NSFileVersion terms.
public struct DocumentAppResolution: Sendable {
    /// The new content of the current version (a merge): resolves every other version with it.
    public var content: DocumentContent?
    /// `content` is the platform's three-way merge of the versions (the trace says so).
    public var contentIsMerge = false
    /// Copies to save as new documents: (path, content, the version copied). A nil path is the
    /// platform's conflict-copy name for the version (`freeCopyPath`).
    public var copies: [(path: String?, content: DocumentContent, of: WriteID)]
    /// Remove the other versions and mark the conflict resolved.
    public var resolve: Bool
    /// The other version to make current keeping its write (`NSFileVersion.replaceItem(at:)`);
    /// with `resolve`, the remaining versions go. The current version's id keeps it (no change).
    public var replaceWith: WriteID?

    public init(content: DocumentContent? = nil, copies: [(path: String?, content: DocumentContent, of: WriteID)] = [], resolve: Bool = false) {
        self.content = content; self.copies = copies; self.resolve = resolve
    }
}

extension DocumentEngine {
    /// The cloud's state of `path` while the app is asked about it: in conflict, nothing of the
    /// device's own pending, and told to the app (`inConflict`). Nil otherwise.
    public func conflictForApp(path: String) -> DocumentState? {
        guard let document = state.documents[path], let cloud = document.cloud, cloud.inConflict, document.pending.isEmpty,
              document.handledConflicts == ([cloud.current.id] + cloud.conflicts.map(\.version.id)).sorted() else { return nil }
        return cloud
    }

    /// Carries out a hosted app's resolution of the conflict `conflictForApp(path:)` returned.
    public mutating func resolveForApp(path: String, _ resolution: DocumentAppResolution, _ context: inout EngineContext) {
        guard let cloud = conflictForApp(path: path) else { return }
        carryOut(resolution, path: path, cloud, &context)
        pump(&context)
    }

    /// Carries out an app's resolution of the conflict `cloud` on `path`: the copies are saved as
    /// conflict copies, then new content as a merge of every version, or, once the copies are up,
    /// a replacement (another version made current, `replaceItem`) or a plain resolution (current
    /// version kept); nothing asked keeps the versions.
    mutating func carryOut(_ resolution: DocumentAppResolution, path: String, _ cloud: DocumentState, _ context: inout EngineContext) {
        var copyPaths: [String] = []
        for copy in resolution.copies {
            // The cloud numbers conflict versions from 1; the current version is 0.
            let version: DocumentVersion, ordinal: Int
            if copy.of == cloud.current.id {
                (version, ordinal) = (cloud.current, 0)
            } else if let conflict = cloud.conflicts.first(where: { $0.version.id == copy.of }) {
                (version, ordinal) = (conflict.version, conflict.ordinal)
            } else {
                continue
            }
            let copyPath = copy.path ?? freeCopyPath(path, content: copy.content, authorName: version.authorName, ordinal: ordinal)
            copyPaths.append(copyPath)
            saveCopy(copyPath, content: copy.content, of: version, &context)
        }
        let resolves = cloud.conflicts.map(\.version.id).sorted()
        // This decision is about the conflict as it is now: a replacement chosen for an earlier
        // one (not sent yet) is not this app's answer any more.
        state.documents[path]?.pendingReplacement = nil
        if let content = resolution.content {
            let why: (Int) -> String = resolution.contentIsMerge ? { "merge of \($0) versions" } : { "the app's resolution of \($0) versions" }
            queueMerged(path: path, cloud, content: content, resolves: resolves, why: why, &context)
        } else if let chosen = resolution.replaceWith, chosen != cloud.current.id, resolves.contains(chosen) {
            let others = resolution.resolve ? resolves.filter { $0 != chosen } : []
            state.documents[path]?.pendingReplacement = DocumentReplacement(path: path, replacing: cloud.current.id, chosen: chosen, resolves: others)
            state.documents[path]?.pendingResolve = nil
            state.documents[path]?.awaitingCopies = copyPaths
        } else if resolution.resolve {
            state.documents[path]?.pendingResolve = resolves
            state.documents[path]?.awaitingCopies = copyPaths
        }
    }
}

extension DocumentEngine {
    /// The text of the common ancestor of a conflict's current version and its first other
    /// version (as `merge` finds it), or nil when none with known text exists.
    public static func commonAncestorText(of conflict: DocumentState) -> String? {
        guard let other = conflict.conflicts.first?.version else { return nil }
        var graph: [WriteID: DocumentVersion] = [:]
        for version in conflict.ancestry { graph[version.id] = version }
        for version in conflict.conflicts.map(\.version) { graph[version.id] = version }
        graph[conflict.current.id] = conflict.current
        let text = commonAncestorText([conflict.current.id], other.id, graph)
        return text.isEmpty ? nil : text
    }
}
