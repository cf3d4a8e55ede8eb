import Testing
import SyncLabScenario
import SyncLabProtocol
@testable import SyncLabEngines
@testable import SyncLabSimulation

/// A device hosting a records app, shown version after version of a record it stores as it
/// came, keeps them in the record's label entry without applying them item by item (session
/// 15): a fetched version costs no write of the device's own label memory.
@Suite("Hosted records: fetched versions kept in the label entry")
struct HostedFetchedVersionsKeptTests {
    @Test("B, shown A's edits one after another, keeps them as versions; what it shows is the last")
    func fetchedVersionsKept() throws {
        var steps = #"{"at": "0s", "device": "A", "op": "zone.create", "zone": "Todos"}"#
        for (index, second) in [1, 10, 20, 30].enumerated() {
            steps += #", {"at": "\#(second)s", "device": "A", "op": "record.save", "zone": "Todos", "type": "Note", "name": "a", "fields": {"title": "v\#(index)"}}"#
        }
        guard case .success(let scenario) = ScenarioLoader.parse(text: """
            {"format": "synclab/1", "name": "versions kept", "devices": [{"id": "A"}, {"id": "B"}],
             "steps": [\(steps)],
             "expect": {"converged": true}}
            """, path: "test.json"), let run = scenario.runs.first else {
            throw HarnessError(message: "bad scenario")
        }
        var options = SimulationOptions()
        options.hostRecordsPolicies = true
        var simulator = Simulator(run: run, options: options)
        let outcome = simulator.execute(judge: false)
        #expect(outcome.settled)
        let labels = try #require(simulator.devices[1].recordsPlatform?.labels)
        let entry = try #require(labels.records.first { $0.key.name == "Todos/a" }?.value)
        // The first version B saw was compared item by item; the later ones are kept.
        #expect(entry.isDeferred && entry.anchor?.fields["title"]?.value == .string("v3"))
        let title = { (items: [(field: String, entry: RecordLabels.Entry)]) in items.first { $0.field == "title" }?.entry.view?.value }
        #expect(title(entry.storedItemsForTests) != .field(.string("v3")))
        #expect(title(entry.items) == .field(.string("v3")))
    }
}
