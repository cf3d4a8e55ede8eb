internal import SyncLabProtocol
internal import SyncLabEngines
internal import SyncLabSimulation

/// Adapts a team's `DocumentsApp` to the platform's hosting protocol.
struct HostedDocumentsApp: DocumentsAppHosting {
    var app: any DocumentsApp

    mutating func resolve(path: String, conflict: DocumentState, ancestor: String?) -> DocumentAppResolution {
        var byName: [String: WriteID] = [:]
        func fileVersion(_ version: DocumentVersion) -> FileVersion {
            // The author made the write: `DEVICE:N` or `DEVICE:mN`, as results name writes.
            let name = "\(version.authorName):\(version.id.derived ? "m" : "")\(version.id.sequence)"
            byName[name] = version.id
            var text: String?
            if case .content(.text(let content)) = version.body { text = content }
            let isDeletion: Bool
            if case .deleted = version.body { isDeletion = true } else { isDeletion = false }
            return FileVersion(persistentIdentifier: name, text: text, sizeBytes: version.body.sizeBytes,
                               modificationDate: .microseconds(version.modifiedAt.microseconds), savingDeviceName: version.authorName,
                               isDeletion: isDeletion)
        }
        let shown = DocumentConflict(path: path, currentVersion: fileVersion(conflict.current),
                                     otherVersions: conflict.conflicts.map { fileVersion($0.version) }, commonAncestorText: ancestor)
        let resolver = DocumentConflictResolver()
        app.documentIsInConflict(shown, resolver: resolver)
        return DocumentAppResolution(content: resolver.content.map { .text($0) },
                                     copies: resolver.copies.compactMap { copy in byName[copy.of].map { (copy.path, .text(copy.text), $0) } },
                                     resolve: resolver.resolved)
    }
}
