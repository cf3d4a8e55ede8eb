import Testing
@testable import SyncLabScenario

@Suite("A scenario may name its JSON Schema")
struct SchemaKeyTests {
    /// Editors read `$schema` to complete and check keys; the reader accepts it and ignores it.
    @Test func aSchemaKeyIsAcceptedAndChangesNothing() throws {
        let plain = try #require(Load.file(Load.scenario(#""seed": 3"#)))
        let named = try #require(Load.file(Load.scenario(#""$schema": "../docs/synclab.schema.json", "seed": 3"#)))
        #expect(named.runs.count == plain.runs.count)
        #expect(named.runs[0].seed == 3)
        #expect(named.name == plain.name)
        // Still one key among the others: a typo of it is an unknown key.
        #expect(Load.errors(Load.scenario(#""$schemas": "x""#)).map(\.path) == ["$schemas"])
    }
}
