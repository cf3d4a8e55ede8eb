import SyncLabProtocol

/// The container's record schema: record types and their fields' value kinds.
///
/// In `development` a save creates unknown types and fields (just-in-time schema); in
/// `production` they fail with `invalidArguments`. Changing a field's kind fails in both, as in
/// CloudKit, where a field's type is fixed once created.
struct RecordSchema: Hashable, Sendable {
    /// Record type → field name → kind name (`string`, `int`, `list<string>`…).
    private(set) var types: [String: [String: String]] = [:]

    /// Checks a save against the schema and, in development, extends it.
    /// - Returns: nil if the save fits, or the reason it does not.
    mutating func admit(type: String, fields: [String: StoredField], environment: SchemaEnvironment) -> String? {
        let known = types[type]
        if known == nil && environment == .production { return "unknown record type \(type)" }
        var fieldKinds = known ?? [:]
        let names = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
            guard let value = fields[name]?.value else { continue }
            let kind = RecordSchema.kind(of: value)
            if let existing = fieldKinds[name] {
                // An empty list has no element kind: it fits any list field, and a field first
                // saved as an empty list takes the kind of the first non-empty one.
                if kind == "list" && existing.hasPrefix("list") { continue }
                if existing == "list" && kind.hasPrefix("list<") { fieldKinds[name] = kind; continue }
                if existing != kind { return "field \(type).\(name) is \(existing), not \(kind)" }
            } else {
                if environment == .production { return "unknown field \(type).\(name)" }
                fieldKinds[name] = kind
            }
        }
        types[type] = fieldKinds
        return nil
    }

    /// Declares a type with field kinds, as deploying a schema to production does.
    mutating func declare(type: String, fields: [(name: String, kind: String)]) {
        var fieldKinds = types[type] ?? [:]
        for field in fields { fieldKinds[field.name] = field.kind }
        types[type] = fieldKinds
    }

    /// The kind name of a value; a list is `list<element kind>` (of its first element).
    static func kind(of value: FieldValue) -> String {
        switch value {
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .bytes: return "bytes"
        case .date: return "date"
        case .location: return "location"
        case .reference: return "reference"
        case .asset: return "asset"
        case .list(let elements): return elements.first.map { "list<\(kind(of: $0))>" } ?? "list"
        }
    }
}
