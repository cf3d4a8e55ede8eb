import Testing
import SyncLab
import SyncLabTesting
import HighScoreGame

/// A scores offline, B scores later online, A reconnects: B's write is newer, so the cloud
/// keeps B's score unless the game's sync code does something about it.
func scoreRace(a: Int64, b: Int64, bRunsTheGame: Bool = true) throws -> RunResult {
    var apps = AppRegistry.builtIn
    try apps.register(kvs: "HighScore") { HighScoreSync() }
    try apps.register(kvs: "NaiveHighScore") { NaiveHighScoreSync() }
    return try scoreRace(a: a, b: b, app: "HighScore", bApp: bRunsTheGame ? nil : "reader", apps: apps)
}

func scoreRace(a: Int64, b: Int64, app: String, bApp: String?, apps: AppRegistry) throws -> RunResult {
    var scenario = ScenarioBuilder(name: "score race \(app)")
    scenario.apps = ["kvs": .string(app)]
    scenario.device("A")
    scenario.device("B", bApp.map { ["apps": ["kvs": .string($0)]] } ?? [:])
    scenario.step(at: "10s", device: "A", op: "airplane.on")
    scenario.step(at: "20s", device: "A", op: "kvs.set", ["key": "best", "value": .integer(a)])
    scenario.step(at: "30s", device: "B", op: "kvs.set", ["key": "best", "value": .integer(b)])
    scenario.step(at: "60s", device: "A", op: "airplane.off")
    scenario.expect = ["converged": true, "final": ["kvs": ["best": .integer(max(a, b))]]]
    return try Scenario(scenario, apps: apps).run()
}

@Test func theHigherScoreSurvivesAnOfflineRace() throws {
    let result = try scoreRace(a: 120, b: 80)
    result.expectPassed()
    result.expectNoAnomalies()
}

@Test func theNaiveGameLosesTheOtherDevicesHigherScore() throws {
    var apps = AppRegistry.builtIn
    try apps.register(kvs: "NaiveHighScore") { NaiveHighScoreSync() }
    // Only A runs the naive game (two naive games would overwrite each other forever).
    let result = try scoreRace(a: 80, b: 120, app: "NaiveHighScore", bApp: "reader", apps: apps)
    #expect(!result.passed)
    let lost = result.expectAnomaly("lostUpdate", store: "kvs", device: "B")
    #expect(lost.first?.replacedBy?.hasPrefix("A:m") == true)
}
