import SyncLabJSON
@testable import SyncLabScenario

/// Test helpers: load a scenario from text, or get its errors.
enum Load {
    /// A minimal valid scenario with `extra` top-level members spliced in (JSON5 text, no braces).
    static func scenario(_ extra: String, devices: String = #"[{"id": "A"}, {"id": "B"}]"#) -> String {
        "{\"format\": \"synclab/1\", \"name\": \"t\", \"devices\": \(devices)\(extra.isEmpty ? "" : ",\n") \(extra)}"
    }

    static func file(_ text: String) -> ScenarioFile? {
        switch ScenarioLoader.parse(text: text, path: "t.json") {
        case .success(let file): return file
        case .failure: return nil
        }
    }

    static func errors(_ text: String) -> [ScenarioError] {
        switch ScenarioLoader.parse(text: text, path: "t.json") {
        case .success: return []
        case .failure(let errors): return errors.errors
        }
    }

    /// Rendered error lines, for messages in failed expectations.
    static func describe(_ errors: [ScenarioError]) -> String { errors.map(\.description).joined(separator: "\n") }
}
