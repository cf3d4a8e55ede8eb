/// Where a setting written outside its section goes: `"latency": "10ms"` at the top of a
/// scenario or a variant belongs under `network`, `"settle"` under `end`, `"conflict"` under
/// `engine` (SPEC §5). Without it such keys were "unknown key 'latency' in the scenario" with
/// neither a suggestion nor the list of keys.
enum SectionHint {
    /// `; it goes under …` for `key`, or nil when it belongs to no section.
    /// - Parameter end: whether `end` may hold it here (a variant takes no `end`).
    static func hint(for key: String, end: Bool = true) -> String? {
        if ScenarioReader.linkKeys.contains(key) {
            return "; a link setting goes under 'network', like \"network\": {\"\(key)\": …}"
        }
        if ScenarioKeys.end.contains(key) {
            return end ? "; it goes under 'end', like \"end\": {\"\(key)\": …}" : "; 'end' is the scenario's, the same in every variant"
        }
        let engineSections = ScenarioKeys.engine.filter { $0.keys.contains(key) }.map(\.section)
        if !engineSections.isEmpty {
            return "; it goes under 'engine', like " + engineSections.map { "\"engine\": {\"\($0)\": {\"\(key)\": …}}" }.joined(separator: " or ")
        }
        if ScenarioKeys.kvsLimits.contains(key) { return "; it goes under 'limits', like \"limits\": {\"kvs\": {\"\(key)\": …}}" }
        if ScenarioKeys.recordLimits.contains(key) { return "; it goes under 'limits', like \"limits\": {\"records\": {\"\(key)\": …}}" }
        if key == "storage" { return "; it goes under 'limits', like \"limits\": {\"storage\": \"5GB\"}" }
        return nil
    }

    /// A variant's keys that only the scenario has: said so, not listed as unknown.
    static func variantHint(for key: String) -> String? {
        switch key {
        case "devices", "steps", "accounts", "seed", "duration", "environment", "schema":
            return "; '\(key)' is the scenario's, the same in every variant: a variant changes only engine, apps, network, limits and expect"
        case "variant", "id": return "; a variant's name is its 'name', like {\"name\": \"merge\"}"
        default: return hint(for: key, end: false)
        }
    }
}
