import Testing
import SyncLab
import SyncLabTesting

// docs/LIBRARY.md's "Five-minute start", verbatim: its app, its test, and the naive twin it
// shows failing. The guide printed a failure for the careful app, which passes: a new user who
// followed it saw a green test under a red example.

public struct HighScoreSync: KeyValueStoreApp {
    public private(set) var best: Int64 = 0
    public init() {}

    public mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if keys.contains("best"), case .integer(let score)? = store.object(forKey: "best") { best = max(best, score) }
    }

    public mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        guard change.changedKeys.contains("best") else { return }
        if case .integer(let cloud)? = store.object(forKey: "best"), cloud >= best { best = cloud }
        else if best > 0 { store.set(.integer(best), forKey: "best") }
    }
}

public struct BlindHighScoreSync: KeyValueStoreApp {
    public private(set) var best: Int64 = 0
    public init() {}

    public mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if keys.contains("best"), case .integer(let score)? = store.object(forKey: "best") { best = max(best, score) }
    }

    public mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        if change.changedKeys.contains("best") && best > 0 { store.set(.integer(best), forKey: "best") }   // never reads what came in
    }
}

@Suite("docs/LIBRARY.md's snippets run as the guide says")
struct LibraryGuideSnippetTests {
    /// The guide's test, verbatim but for the app's name (and, for the blind twin, the changes
    /// the guide lists), returning its result.
    static func scoreRace(app: String, blindTwin: Bool = false) throws -> RunResult {
        var apps = AppRegistry.builtIn
        try apps.register(kvs: "HighScore") { HighScoreSync() }
        try apps.register(kvs: "BlindHighScore") { BlindHighScoreSync() }
        apps.program = "swift run high-scores"   // your executable, for replay lines (below)
        var scenario = ScenarioBuilder(name: "score race")
        scenario.apps = ["kvs": .string(app)]
        scenario.device("A")
        if blindTwin { scenario.device("B", ["apps": ["kvs": "reader"]]) } else { scenario.device("B") }
        scenario.step(at: "10s", device: "A", op: "airplane.on")
        scenario.step(at: "20s", device: "A", op: "kvs.set", ["key": "best", "value": blindTwin ? 80 : 120])
        scenario.step(at: "30s", device: "B", op: "kvs.set", ["key": "best", "value": blindTwin ? 120 : 80])
        scenario.step(at: "60s", device: "A", op: "airplane.off")
        return try Scenario(scenario, apps: apps).run()
    }

    @Test("the five-minute start's test passes: the app reads what came in before writing back")
    func carefulAppPasses() throws {
        let result = try Self.scoreRace(app: "HighScore")
        result.expectNoAnomalies()
        #expect(result.final.jsonText.contains(#""kvs":{"best":120}"#), "\(result.final)")
    }

    @Test("the blind twin fails with the issue the guide prints")
    func blindAppFails() throws {
        let result = try Self.scoreRace(app: "BlindHighScore", blindTwin: true)
        let lost = result.expectAnomaly("lostUpdate", store: "kvs", device: "B")
        #expect(lost.first?.explanation == "B's write B:1 (kvs.set \"best\" at 30s) was lost: last-writer-wins by device change timestamp kept A:m1, which had not seen it.",
                "\(lost)")
        #expect(result.replayCommand(reportsFolder: "/r").hasPrefix("swift run high-scores run /r/scenario.json --seed 1"), "\(result.replayCommand(reportsFolder: "/r"))")
    }

    @Test("the stepping World snippet")
    func worldSnippet() throws {
        let world = try World(devices: ["iPhone", "iPad"], apps: ["records": "merge"])
        try world.device("iPhone").airplane(true)
        try world.device("iPhone").zoneCreate("Todos")
        try world.device("iPhone").recordSave(zone: "Todos", type: "Todo", name: "milk", fields: ["title": "Milk", "done": 1])
        world.advance(by: .seconds(30))
        #expect(world.device("iPad").view.records["Todos/milk"] == nil)   // still on the plane
        try world.device("iPhone").airplane(false)
        world.runUntilQuiescent()
        #expect(world.device("iPad").view.records["Todos/milk"]?["done"] == 1)
        #expect(world.anomalies.isEmpty)                                        // the checker so far
        let result = world.finish()                                             // heal, settle, judge
        result.expectNoAnomalies()
    }

    @Test("the records delegate of 'Porting a CKSyncEngine delegate' syncs a custom zone and loses the offline tick, as the guide says")
    func recordsDelegateSnippet() throws {
        var apps = AppRegistry.builtIn
        try apps.register(records: "Todo", GuideSnippet.TodoSync.self)   // files: "apps": {"records": "Todo"}
        var scenario = ScenarioBuilder(name: "offline tick")
        scenario.apps = ["records": "Todo"]
        scenario.device("iPhone")
        scenario.device("iPad")
        scenario.step(at: "0s", device: "iPhone", op: "zone.create", ["zone": "Todos"])
        scenario.step(at: "1s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Milk"]])
        scenario.step(at: "10s", device: "iPhone", op: "airplane.on")
        scenario.step(at: "20s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["done": 1]])
        scenario.step(at: "30s", device: "iPad", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Oat milk"]])
        scenario.step(at: "60s", device: "iPhone", op: "airplane.off")
        let result = try Scenario(scenario, apps: apps).run()
        #expect(result.metrics.converged, "the zone is created, so the records sync: \(result.summary)")
        let lost = result.expectAnomaly("lostUpdate", store: "records", device: "iPhone")
        #expect(lost.map(\.item) == ["Todos/milk"] && lost.map(\.field) == ["done"], "\(result.summary)")
    }
}

/// docs/LIBRARY.md's records delegate, verbatim inside a namespace (the test module has a
/// `TodoSync` of its own).
enum GuideSnippet {
    struct TodoStore: Sendable {                                // your local database, as your app keeps it
        var records = SyncRecordStore()
        var syncState: SyncEngine.State.Serialization?
        mutating func apply(_ edit: RecordEdit) { records[edit.recordID] = edit.applied(to: records[edit.recordID]) }
        mutating func merge(_ fetched: [SyncRecord]) { for record in fetched { records[record.recordID] = record } }
        func record(for id: SyncRecord.ID) -> SyncRecord? { records[id] }
    }

    struct TodoSync: RecordsApp {
        var store: TodoStore                                    // your local database
        init(disk: TodoStore?) { store = disk ?? TodoStore() }  // each launch, from what you persisted
        var disk: TodoStore { store }                           // what survives a crash
        var stateSerialization: SyncEngine.State.Serialization? { store.syncState }  // handed to the engine at launch

        mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
            switch action {
            case .saveRecord(let edit):
                store.apply(edit)
                syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(edit.recordID)])
            case .createZone(let zone):                          // forget this: nothing in the zone ever syncs (zoneNotFound)
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
            default: break
            }
        }
        mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
            switch event {
            case .stateUpdate(let state): store.syncState = state   // forget this: a crash loses pending changes
            case .fetchedRecordZoneChanges(let changes): store.merge(changes.modifications)
            case .sentRecordZoneChanges(let sent):
                for failure in sent.failedRecordSaves where failure.error.code == .serverRecordChanged {
                    store.merge([failure.error.serverRecord!])       // naive: the server's record replaces your edit
                    syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(failure.record.recordID)])
                }
            default: break
            }
        }
        func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
            SyncEngine.RecordZoneChangeBatch(pendingChanges: context.pendingChanges) { store.record(for: $0) }
        }
        var userSees: SyncRecordStore { store.records }        // a stored SyncRecordStore, changed in place
    }
}
