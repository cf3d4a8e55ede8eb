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

    /// The built-in records app named `name` (its type's name; the scenario module's
    /// `AppNames.builtInRecordsApps` lists the same names, which a test checks), as the simulation
    /// makes it at each launch from what it persisted; nil for any other name.
    package static func records(named name: String) -> (@Sendable ((any Sendable)?) -> any SyncEngineAppHosting)? {
        switch name {
        case "ServerWinsRecordsApp": return records(.serverWins)
        case "ClientWinsRecordsApp": return records(.clientWins)
        case "MergeRecordsApp": return records(.merge)
        default: return nil
        }
    }

    /// The type name of the built-in records app of `policy`, which `records(named:)` takes and
    /// explanations name as the app that settled a conflict.
    package static func recordsAppName(_ policy: RecordConflictPolicy) -> String {
        switch policy {
        case .serverWins: return "ServerWinsRecordsApp"
        case .clientWins: return "ClientWinsRecordsApp"
        case .merge: return "MergeRecordsApp"
        }
    }

    /// The built-in records app of `policy` (for comparing it with the engine's own policy).
    package static func records(_ policy: RecordConflictPolicy) -> @Sendable ((any Sendable)?) -> any SyncEngineAppHosting {
        switch policy {
        case .serverWins: return { HostedRecordsApp<ServerWinsRecordsApp>(disk: $0) }
        case .clientWins: return { HostedRecordsApp<ClientWinsRecordsApp>(disk: $0) }
        case .merge: return { HostedRecordsApp<MergeRecordsApp>(disk: $0) }
        }
    }

    /// The built-in KVS app `reader` (`AppNames.kvsReader`), hosted.
    package static func kvsReader() -> any KVSAppHosting { HostedKeyValueStoreApp(app: KVSReaderApp()) }
}
