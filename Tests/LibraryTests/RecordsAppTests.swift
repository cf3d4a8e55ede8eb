import Testing
import SyncLab
import SyncLabTesting

@Suite("A team's CKSyncEngine delegate on every device")
struct RecordsAppTests {
    static func registry() throws -> AppRegistry {
        var apps = AppRegistry.builtIn
        try apps.register(records: "Todo", TodoSync<Careful>.self)
        try apps.register(records: "NaiveTodo", TodoSync<AdoptsServer>.self)
        try apps.register(records: "LateStateTodo", TodoSync<SavesStateLate>.self)
        return apps
    }

    /// Both devices edit different fields of one to-do in airplane mode, then reconnect.
    static func airplaneConflict(_ app: String) throws -> Scenario {
        var builder = ScenarioBuilder(name: "todo airplane \(app)")
        builder.seed = 7
        builder.apps = ["records": .string(app)]
        builder.device("iPhone")
        builder.device("iPad")
        builder.step(at: "0s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Milk", "done": 0]])
        builder.step(at: "10s", device: "iPhone", op: "airplane.on")
        builder.step(at: "10s", device: "iPad", op: "airplane.on")
        builder.step(at: "20s", device: "iPhone", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["done": 1]])
        builder.step(at: "30s", device: "iPad", op: "record.save", ["zone": "Todos", "type": "Todo", "name": "milk", "fields": ["title": "Oat milk"]])
        builder.step(at: "60s", device: "iPhone", op: "airplane.off")
        builder.step(at: "90s", device: "iPad", op: "airplane.off")
        return try Scenario(builder, apps: registry())
    }

    func finalRecord(_ result: RunResult, _ name: String) -> ScenarioObject? {
        guard case .object(let main)? = result.final["main"], case .object(let records)? = main["records"],
              case .object(let record)? = records[name] else { return nil }
        return record
    }

    @Test("the careful delegate merges the airplane-mode edits: both fields kept, converged, no anomalies")
    func carefulDelegate() throws {
        let result = try Self.airplaneConflict("Todo").run()
        result.expectNoAnomalies()
        let record = finalRecord(result, "Todos/milk")
        #expect(record?["title"] == "Oat milk" && record?["done"] == 1, "\(result.final)")
        #expect(result.metrics.converged && result.metrics.conflicts >= 1, "\(result.metrics)")
    }

    @Test("the naive twin adopts the server record on serverRecordChanged: the checker explains the lost update")
    func naiveTwin() throws {
        let result = try Self.airplaneConflict("NaiveTodo").run()
        result.expectAnomaly("lostUpdate", store: "records", device: "iPad")
        let lost = result.anomalies.first { $0.kind == "lostUpdate" }
        #expect(lost?.field == "title" && lost?.explanation.contains("NaiveTodo") == true, "\(result.anomalies)")
    }
}
