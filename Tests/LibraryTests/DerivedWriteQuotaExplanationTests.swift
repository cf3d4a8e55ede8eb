import Testing
import SyncLab

/// A quota violation of a write no user op made — a team app's own write, a keepBoth conflict
/// copy — was explained as "B's write B:m1 (engine write) was refused…": a team reading it
/// about their KVS app's write could not tell it was theirs, nor what the write was.
@Suite("A refused derived write is explained by why it was made")
struct DerivedWriteQuotaExplanationTests {
    struct WritesBack: KeyValueStoreApp {
        init() {}
        mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
            if keys.contains("a") { store.set(.string(String(repeating: "x", count: 20)), forKey: "mine") }
        }
        mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {}
    }

    @Test("a KVS app's own write over the limit is named the app's")
    func appWriteNamed() throws {
        var apps = AppRegistry.builtIn
        try apps.register(kvs: "WritesBack") { WritesBack() }
        var scenario = ScenarioBuilder(name: "app write over quota")
        scenario.apps = ["kvs": "WritesBack"]
        scenario.limits = ["kvs": ["totalBytes": 10]]
        scenario.device("A")
        scenario.step(at: "1s", device: "A", op: "kvs.set", ["key": "a", "value": "1"])
        let result = try Scenario(scenario, apps: apps).run()
        let quota = try #require(result.anomalies.first { $0.kind == "quotaViolation" })
        #expect(quota.explanation == "A's write A:m1 (the device's KVS app wrote it after the user's change) was refused with quotaViolation: it would break the kvs.totalBytes limit.",
                "\(quota.explanation)")
    }
}
