import SyncLabJSON
import SyncLabProtocol

/// `{"kvs": {key: value}, "documents": {path: content}, "records": {"ZONE/NAME": {field: value}}}`:
/// item values to compare, as `assert` steps and `expect.final` write them. `null` means absent.
extension ScenarioReader {
    struct ItemValues {
        var kvs: [(key: String, value: PlistValue?)] = []
        var documents: [(path: String, content: DocumentContent?)] = []
        var records: [(name: String, fields: [FieldAssignment]?)] = []
    }

    /// Reads the three maps, in the order written. Nil when anything in them is invalid.
    func itemValues(_ node: JSONNode, _ path: JSONPath, what: String) -> ItemValues? {
        // An item written without its store (`"final": {"theme": "dark"}`) is shown under one.
        let withoutStore: (String) -> String? = { key in "; items are listed by store, like {\"kvs\": {\"\(key)\": …}}, {\"documents\": {…}} or {\"records\": {\"ZONE/NAME\": {…}}}" }
        guard let members = members(node, path, allowed: ScenarioKeys.itemSections, what: what, example: ShapeExample.itemValues,
                                    hint: { Suggestion.closest(to: $0, in: ScenarioKeys.itemSections) == nil ? withoutStore($0) : nil }) else { return nil }
        var result = ItemValues()
        var failed = false
        // Unknown keys were reported above; reading them as a store would add a second, wrong error.
        for member in members where ScenarioKeys.itemSections.contains(member.key) {
            let sectionPath = path.key(member.key)
            guard let entries = member.value.members else {
                report("expected an object of \(member.key == "records" ? "\"ZONE/NAME\" → fields" : member.key == "kvs" ? "key → value" : "path → content"), got \(member.value.value.shortDescription)", at: member.value.position, path: sectionPath)
                failed = true
                continue
            }
            for entry in entries {
                let entryPath = sectionPath.key(entry.key)
                switch member.key {
                case "kvs":
                    // An item no op can write would be checked vacuously (`null` always holds).
                    if entry.key.isEmpty {
                        report("expected a key, got an empty string", at: entry.keyPosition, path: entryPath)
                        failed = true
                    } else if let value = expectedPlist(entry.value, entryPath) {
                        checkSpelling(entry.key, .key, at: entry.keyPosition, path: entryPath)
                        result.kvs.append((entry.key, value))
                    } else { failed = true }
                case "documents":
                    if !ScenarioReader.isDocumentPath(entry.key) {
                        report(ScenarioReader.documentPathError(entry.key), at: entry.keyPosition, path: entryPath)
                        failed = true
                    } else if let content = expectedContent(entry.value, entryPath) {
                        checkSpelling(entry.key, .path, at: entry.keyPosition, path: entryPath)
                        result.documents.append((entry.key, content))
                    } else { failed = true }
                default:
                    let parts = entry.key.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                        report("expected a record item name \"ZONE/NAME\" (like \"_defaultZone/n1\"), got \"\(entry.key)\"", at: entry.keyPosition, path: entryPath)
                        failed = true
                        continue
                    }
                    checkSpelling(String(parts[0]), .zone, at: entry.keyPosition, path: entryPath)
                    checkSpelling(String(parts[1]), .record, at: entry.keyPosition, path: entryPath)
                    if case .null = entry.value.value {
                        result.records.append((entry.key, nil))
                    } else if let fields = fieldAssignments(entry.value, entryPath) {
                        result.records.append((entry.key, fields))
                    } else {
                        failed = true
                    }
                }
            }
        }
        return failed ? nil : result
    }

    /// A path inside the account's container: names separated by single `/`, none of them `.`
    /// or `..`, no leading or trailing `/` (a path that climbs out of the container or names a
    /// folder is not a document). `doc.*` steps, `assert` and `expect.final` hold to it alike.
    static func isDocumentPath(_ text: String) -> Bool {
        !text.isEmpty && !text.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    static func documentPathError(_ text: String) -> String {
        "expected a document path inside the container (names separated by single \"/\", no \".\" or \"..\", no leading or trailing \"/\"), got \"\(text)\""
    }
}
