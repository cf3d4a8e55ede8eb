import Testing
import SyncLab
import SyncLabTesting

/// The shortest honest port of a CKSyncEngine delegate (issue 11's "under 40 lines"): a local
/// dictionary of records, the state serialization kept with it, and the naive conflict handling
/// teams start with: keep the server's record on `serverRecordChanged`.
struct MinimalNaiveTodos: RecordsApp {
    var records: SyncRecordStore = [:]
    var stateSerialization: SyncEngine.State.Serialization?
    init(disk: MinimalNaiveTodos?) { if let disk { self = disk } }
    var userSees: SyncRecordStore { records }

    mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
        guard case .saveRecord(let edit) = action else { return }
        records[edit.recordID] = edit.applied(to: records[edit.recordID])
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(edit.recordID.zoneName)])
        syncEngine.state.add(pendingRecordZoneChanges: [.saveRecord(edit.recordID)])
    }

    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {
        switch event {
        case .stateUpdate(let serialization): stateSerialization = serialization
        case .fetchedRecordZoneChanges(let changes): for record in changes.modifications { records[record.recordID] = record }
        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords + sent.failedRecordSaves.compactMap(\.error.serverRecord) { records[record.recordID] = record }
        default: break
        }
    }

    func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? {
        SyncEngine.RecordZoneChangeBatch(pendingChanges: context.pendingChanges) { records[$0] }
    }
}

@Suite("The shortest delegate a team writes: the platform's conveniences and the checker's explanation")
struct MinimalDelegateTests {
    static func offlineCreates() throws -> RunResult {
        var apps = AppRegistry.builtIn
        try apps.register(records: "MinimalNaiveTodos", MinimalNaiveTodos.self)
        var scenario = ScenarioBuilder(name: "offline todo")
        scenario.apps = ["records": "MinimalNaiveTodos"]
        scenario.device("iPhone"); scenario.device("iPad")
        scenario.step(at: "10s", device: "iPhone", op: "airplane.on")
        scenario.step(at: "20s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["done": 1]])
        scenario.step(at: "30s", device: "iPad", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Oat milk"]])
        scenario.step(at: "60s", device: "iPhone", op: "airplane.off")
        return try Scenario(scenario, apps: apps).run()
    }

    @Test("two offline creations of one record: the naive delegate keeps the server's, and the lost field is explained by its resolution")
    func naiveResolutionExplained() throws {
        let result = try Self.offlineCreates()
        result.expectAnomaly("lostUpdate", store: "records", device: "iPhone")
        let lost = result.anomalies.filter { $0.kind == "lostUpdate" }
        #expect(lost.count == 1 && lost.first?.field == "done", "\(result.anomalies)")
        #expect(lost.first?.explanation.contains("iPhone resolved a conflict over it with policy MinimalNaiveTodos, which kept a version without it") == true,
                "\(result.anomalies)")
    }

    @Test("an app whose value is its disk survives a crash whole: records and the state serialization")
    func selfIsDisk() throws {
        let world = try World(devices: ["iPhone", "iPad"], apps: ["records": "MinimalNaiveTodos"], registry: {
            var apps = AppRegistry.builtIn
            try apps.register(records: "MinimalNaiveTodos", MinimalNaiveTodos.self)
            return apps
        }())
        try world.device("iPhone").airplane(true)
        try world.device("iPhone").recordSave(zone: "Todos", type: "Todo", name: "milk", fields: ["title": "Milk"])
        try world.device("iPhone").crash()
        try world.device("iPhone").restart()
        try world.device("iPhone").airplane(false)
        world.runUntilQuiescent()
        #expect(world.device("iPad").view.records["Todos/milk"] == ["title": "Milk"], "\(world.device("iPad").view)")
        #expect(world.anomalies.isEmpty, "\(world.anomalies)")
    }

    @Test("RecordEdit.applied(to:) makes the record when there is none and edits it when there is")
    func appliedEdit() throws {
        var apps = AppRegistry.builtIn
        try apps.register(records: "MinimalNaiveTodos", MinimalNaiveTodos.self)
        let world = try World(devices: ["A"], apps: ["records": "MinimalNaiveTodos"], registry: apps)
        try world.device("A").recordSave(zone: "Z", type: "Todo", name: "r", fields: ["title": "Milk", "done": 0])
        try world.device("A").recordSave(zone: "Z", type: "Todo", name: "r", fields: ["done": 1])
        world.runUntilQuiescent()
        #expect(world.device("A").view.records["Z/r"] == ["title": "Milk", "done": 1], "\(world.device("A").view)")
    }
}
