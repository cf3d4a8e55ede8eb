import Testing
import SyncLab
import SyncLabTesting
import Todos

func todoApps() throws -> AppRegistry {
    var apps = AppRegistry.builtIn
    try apps.register(records: "Todos", TodoSyncDelegate.self)
    try apps.register(records: "NaiveTodos", NaiveTodoSyncDelegate.self)
    return apps
}

/// The iPhone ticks a to-do off and the iPad renames it, both in airplane mode; the iPad
/// reconnects last, so its save meets `serverRecordChanged`.
func offlineTodoEdits(app: String) throws -> RunResult {
    var scenario = ScenarioBuilder(name: "offline todo edits \(app)")
    scenario.apps = ["records": .string(app)]
    scenario.device("iPhone")
    scenario.device("iPad")
    scenario.step(at: "0s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Milk", "done": 0]])
    scenario.step(at: "10s", device: "iPhone", op: "airplane.on")
    scenario.step(at: "10s", device: "iPad", op: "airplane.on")
    scenario.step(at: "20s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["done": 1]])
    scenario.step(at: "30s", device: "iPad", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Oat milk"]])
    scenario.step(at: "60s", device: "iPhone", op: "airplane.off")
    scenario.step(at: "90s", device: "iPad", op: "airplane.off")
    scenario.expect = ["converged": true, "lostUpdates": 0, "final": ["records": ["Todos/milk": ["title": "Oat milk", "done": 1]]]]
    return try Scenario(scenario, apps: todoApps()).run()
}

@Test func bothOfflineEditsAreKept() throws {
    let result = try offlineTodoEdits(app: "Todos")
    result.expectPassed()
    result.expectNoAnomalies()
}

@Test func theNaiveDelegateLosesTheRename() throws {
    let result = try offlineTodoEdits(app: "NaiveTodos")
    #expect(!result.passed)
    result.expectAnomaly("lostUpdate", store: "records", device: "iPad")
}

@Test func stepByStepAfterACrashTheEditStillGoesUp() throws {
    let world = try World(devices: ["iPhone", "iPad"], apps: ["records": "Todos"], registry: todoApps())
    try world.device("iPhone").recordSave(zone: "Todos", type: "Todo", name: "bread", fields: ["title": "Bread"])
    world.runUntilQuiescent()
    try world.device("iPhone").airplane(true)
    try world.device("iPhone").recordSave(zone: "Todos", type: "Todo", name: "bread", fields: ["done": 1])
    try world.device("iPhone").crash()
    try world.device("iPhone").restart()
    try world.device("iPhone").airplane(false)
    world.runUntilQuiescent()
    #expect(world.device("iPad").view.records["Todos/bread"] == ["title": "Bread", "done": 1], "\(world.device("iPad").view)")
    #expect(world.anomalies.isEmpty, "\(world.anomalies)")
}
