import SyncLabJSON

/// Renders a scenario tree as the text of a scenario file: one top-level key a line, and each
/// element of a top-level list (devices, steps, variants) on a line of its own, so a generated
/// or shrunk file reads like a hand-written one and diffs line by line.
public enum ScenarioText {
    public static func render(_ scenario: JSON) -> String {
        guard case .object(let fields) = scenario else { return scenario.renderedPretty() }
        var lines: [String] = []
        for (index, field) in fields.enumerated() {
            var key = ""
            JSON.writeString(field.key, into: &key)
            let comma = index + 1 < fields.count ? "," : ""
            if case .array(let elements) = field.value, !elements.isEmpty {
                lines.append("  \(key): [")
                for (position, element) in elements.enumerated() {
                    lines.append("    " + element.rendered() + (position + 1 < elements.count ? "," : ""))
                }
                lines.append("  ]" + comma)
            } else {
                lines.append("  \(key): \(field.value.rendered())\(comma)")
            }
        }
        return "{\n" + lines.joined(separator: "\n") + "\n}\n"
    }
}
