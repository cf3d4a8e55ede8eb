package import SyncLabProtocol
package import SyncLabEngines

/// The built-in apps by the names scenario files give them (SPEC §9): how the simulation makes
/// them. Each is an ordinary app written only against the public app API (the files beside this
/// one); only this factory touches the platform's side, to host them.
package enum BuiltInApps {
    /// The built-in document app for `policy`, hosted: asked inside the engine's step.
    package static func documents(_ policy: DocumentConflictPolicy) -> any DocumentsAppHosting & Sendable {
        switch policy {
        case .lastWriterWins: return HostedDocumentsApp(app: LastWriterWinsApp())
        case .keepVersions: return HostedDocumentsApp(app: KeepVersionsApp())
        case .keepBoth: return HostedDocumentsApp(app: KeepBothApp())
        case .merge: return HostedDocumentsApp(app: MergeApp())
        }
    }

    /// The built-in KVS app `reader` (`AppNames.kvsReader`), hosted.
    package static func kvsReader() -> any KVSAppHosting { HostedKeyValueStoreApp(app: KVSReaderApp()) }
}
