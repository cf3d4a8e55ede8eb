package import SyncLabProtocol
package import SyncLabEngines

/// Adapts a `DocumentsApp` (a team's, or a built-in one) to the platform's hosting protocol.
package struct HostedDocumentsApp<App: DocumentsApp>: DocumentsAppHosting {
    var app: App

    package init(app: App) { self.app = app }

    package mutating func resolve(path: String, conflict: DocumentState) -> DocumentAppResolution {
        var byName: [String: DocumentVersion] = [:]
        func fileVersion(_ version: DocumentVersion) -> FileVersion {
            // The author made the write: `DEVICE:N` or `DEVICE:mN`, as results name writes.
            let name = "\(version.authorName):\(version.id.derived ? "m" : "")\(version.id.sequence)"
            byName[name] = version
            var text: String?
            if case .content(.text(let content)) = version.body { text = content }
            let isDeletion: Bool
            if case .deleted = version.body { isDeletion = true } else { isDeletion = false }
            return FileVersion(persistentIdentifier: name, text: text, sizeBytes: version.body.sizeBytes,
                               modificationDate: .microseconds(version.modifiedAt.microseconds), savingDeviceName: version.authorName,
                               isDeletion: isDeletion)
        }
        let shown = DocumentConflict(path: path, currentVersion: fileVersion(conflict.current),
                                     otherVersions: conflict.conflicts.map { fileVersion($0.version) },
                                     commonAncestorText: { DocumentEngine.commonAncestorText(of: conflict) })
        let resolver = DocumentConflictResolver(merge: {
            guard case .text(let text)? = DocumentEngine.mergedContent(conflict) else { return nil }
            return text
        })
        app.documentIsInConflict(shown, resolver: resolver)
        var resolution = DocumentAppResolution(content: resolver.content.map { .text($0.text) }, resolve: resolver.resolved)
        resolution.contentIsMerge = resolver.content?.isMerge ?? false
        // The chosen version keeps its write: the cloud makes that very version current.
        resolution.replaceWith = resolver.chosen.flatMap { byName[$0]?.id }
        for copy in resolver.copies {
            // A copy names a version the app was shown: it keeps that version's write as its parent.
            guard let version = byName[copy.of], let content = copy.text.map(DocumentContent.text) ?? version.body.content else { continue }
            resolution.copies.append((copy.path, content, version.id))
        }
        return resolution
    }
}

extension HostedDocumentsApp: Sendable where App: Sendable {}

/// Hosts `app` (an existential opened here, so the adapter is specialised to the app's type).
package func hostDocumentsApp(_ app: some DocumentsApp) -> any DocumentsAppHosting { HostedDocumentsApp(app: app) }
