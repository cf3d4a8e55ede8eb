import Testing
import SyncLab

/// Printing what a run gives (`result.final`, a builder's `file`) shows JSON, as printing a
/// `ScenarioValue` does: it used to show `ScenarioObject(members: [SyncLabApps.ScenarioMember(…)])`,
/// an internal module's name and the type's layout.
@Suite("ScenarioObject prints as JSON")
struct ScenarioObjectDescriptionTests {
    @Test("an object literal, and a run's final state, print as their JSON text")
    func printsJSON() throws {
        let object: ScenarioObject = ["b": 1, "a": ["x": "y"]]
        #expect("\(object)" == #"{"b":1,"a":{"x":"y"}}"#)
        #expect(object.jsonText == object.description)
        let world = try World(devices: ["A"])
        try world.device("A").kvsSet("k", 2)
        let printed = "\(world.finish().final)"
        #expect(printed == #"{"main":{"kvs":{"k":2},"documents":{},"records":{}}}"#, "\(printed)")
        #expect(!printed.contains("ScenarioMember"))
    }
}
