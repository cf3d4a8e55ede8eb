import SyncLabJSON

/// A scenario made from one seed of one profile: an ordinary scenario file's tree and text.
public struct GeneratedScenario: Sendable {
    public var seed: UInt64
    public var choices: GeneratorChoices
    /// The scenario as a JSON tree (what the shrinker edits).
    public var json: JSON
    /// The scenario file's text (`original.json`).
    public var text: String { ScenarioText.render(json) }
}
