import Testing
import SyncLab
import SyncLabTesting
import Notes

/// A and B both edit the same note offline; B reconnects last, so iCloud sees a conflict.
func offlineNoteEdits(resolver: String) throws -> RunResult {
    var apps = AppRegistry.builtIn
    try apps.register(documents: "Notes") { NotesConflictResolver() }
    try apps.register(documents: "NaiveNotes") { NaiveNotesConflictResolver() }
    var scenario = ScenarioBuilder(name: "offline note edits \(resolver)")
    scenario.apps = ["documents": .string(resolver)]
    scenario.device("A")
    scenario.device("B")
    scenario.step(at: "0s", device: "A", op: "doc.save", ["path": "Groceries.txt", "content": "milk\n"])
    scenario.step(at: "10s", device: "A", op: "airplane.on")
    scenario.step(at: "10s", device: "B", op: "airplane.on")
    scenario.step(at: "20s", device: "A", op: "doc.append", ["path": "Groceries.txt", "text": "eggs\n"])
    scenario.step(at: "30s", device: "B", op: "doc.append", ["path": "Groceries.txt", "text": "bread\n"])
    scenario.step(at: "60s", device: "A", op: "airplane.off")
    scenario.step(at: "90s", device: "B", op: "airplane.off")
    scenario.expect = ["converged": true, "lostUpdates": 0, "unresolvedConflicts": 0]
    return try Scenario(scenario, apps: apps).run()
}

@Test func bothOfflineEditsAreKept() throws {
    let result = try offlineNoteEdits(resolver: "Notes")
    result.expectPassed()
    result.expectNoAnomalies()
}

@Test func theNaiveResolverLosesAnEdit() throws {
    let result = try offlineNoteEdits(resolver: "NaiveNotes")
    #expect(!result.passed)
    result.expectAnomaly("lostUpdate", store: "documents")
}

@Test func stepByStepTheConflictIsResolvedOnBothDevices() throws {
    var apps = AppRegistry.builtIn
    try apps.register(documents: "Notes") { NotesConflictResolver() }
    let world = try World(devices: ["iPhone", "iPad"], apps: ["documents": "Notes"], registry: apps)
    try world.device("iPhone").docSave("Todo.txt", "call mum\n")
    world.runUntilQuiescent()
    try world.device("iPad").airplane(true)
    try world.device("iPhone").docAppend("Todo.txt", "pay rent\n")
    try world.device("iPad").docAppend("Todo.txt", "book dentist\n")
    world.advance(by: .seconds(30))
    try world.device("iPad").airplane(false)
    world.runUntilQuiescent()
    #expect(world.device("iPhone").view.documents == world.device("iPad").view.documents)
    #expect(world.anomalies.isEmpty, "\(world.anomalies)")
}
