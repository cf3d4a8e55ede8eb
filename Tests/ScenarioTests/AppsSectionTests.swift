import Testing
import SyncLabProtocol
@testable import SyncLabScenario

/// `apps` sections (SPEC §9): where they may be written, how they merge, what a bad name says.
@Suite("Scenario files: apps")
struct AppsSectionTests {
    @Test("top level, variant (merged per store) and device apps resolve per device")
    func resolution() throws {
        let text = Load.scenario("""
        "apps": {"records": "serverWins", "documents": "keepBoth"},
        "variants": [{"name": "v", "apps": {"records": "clientWins"}}]
        """, devices: #"[{"id": "A"}, {"id": "B", "apps": {"documents": "merge", "kvs": "reader"}}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let base = file.runs[0], variant = file.runs[1]
        #expect(base.devices[0].apps == AppSelection(documents: "keepBoth", records: "serverWins"))
        #expect(base.devices[1].apps == AppSelection(kvs: "reader", documents: "merge", records: "serverWins"))
        #expect(variant.devices[0].apps == AppSelection(documents: "keepBoth", records: "clientWins"))
        #expect(variant.devices[1].apps == AppSelection(kvs: "reader", documents: "merge", records: "clientWins"))
    }

    @Test("named apps take precedence over engine policies; default and nothing named keep the engine's")
    func precedence() {
        var engine = EngineSettings()
        engine.documents.conflict = .merge
        engine.records.conflict = .clientWins
        let named = DeviceApps(AppSelection(documents: "lastWriterWins", records: "default"), engine: engine)
        #expect(named == DeviceApps(kvs: "reader", documents: "lastWriterWins", records: "clientWins"))
        let applied = named.applied(to: engine)
        #expect(applied.documents.conflict == .lastWriterWins && applied.records.conflict == .clientWins)
        #expect(DeviceApps(AppSelection(), engine: engine) == DeviceApps(kvs: "reader", documents: "merge", records: "clientWins"))
    }

    @Test("an unknown app name is an error at its place, listing the known names", arguments: [
        (#""apps": {"records": "TodoApp"}"#, #"[{"id": "A"}]"#, "apps.records", #"known records apps: "serverWins", "clientWins", "merge", "ServerWinsRecordsApp", "ClientWinsRecordsApp", "MergeRecordsApp", "default""#),
        (#""apps": {"records": "TodoApp"}"#, #"[{"id": "A"}]"#, "apps.records", "a team's own app is known once registered: `AppRegistry.register(records:…)` from Swift, or, from the command line, through the team's own executable calling `SyncLabCommandLine.main(_:apps:)`"),
        (#""apps": {"documents": "mrege"}"#, #"[{"id": "A"}]"#, "apps.documents", "did you mean 'merge'?"),
        ("", #"[{"id": "A", "apps": {"kvs": "HighScore"}}]"#, "devices[0].apps.kvs", #"known kvs apps: "reader", "default""#),
        (#""variants": [{"name": "v", "apps": {"records": "x"}}]"#, #"[{"id": "A"}]"#, "variants[0].apps.records", "unknown records app \"x\""),
        (#""apps": {"photos": "x"}"#, #"[{"id": "A"}]"#, "apps.photos", "unknown key 'photos'"),
        (#""apps": {"kvs": 1}"#, #"[{"id": "A"}]"#, "apps.kvs", "expected an app name"),
    ] as [(String, String, String, String)])
    func unknownNames(extra: String, devices: String, path: String, mentions: String) {
        let errors = Load.errors(Load.scenario(extra, devices: devices))
        #expect(errors.contains { $0.path == path && $0.message.contains(mentions) && $0.position != nil }, "\(Load.describe(errors))")
    }

    @Test("a registry's own names are known besides the built-ins")
    func registryNames() {
        let text = Load.scenario(#""apps": {"records": "TodoApp"}"#)
        let names = AppNames.builtIn.adding(AppNames(kvs: [], documents: [], records: ["TodoApp"]))
        guard case .success(let file) = ScenarioLoader.parse(text: text, path: "t.json", apps: names) else {
            Issue.record("TodoApp should be known"); return
        }
        #expect(file.runs[0].devices[0].apps.records == "TodoApp")
        #expect(names.names(for: .records) == ["serverWins", "clientWins", "merge", "ServerWinsRecordsApp", "ClientWinsRecordsApp", "MergeRecordsApp", "TodoApp", "default"])
    }
}
