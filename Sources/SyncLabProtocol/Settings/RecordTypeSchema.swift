/// A record type deployed to the container's schema before the run (the scenario's `schema`), as
/// deploying a development schema to production does in CloudKit.
///
/// In `production` only deployed types and fields can be saved; in `development` a deployed
/// field's kind is fixed from the start (a save of another kind fails, as a type change does).
public struct RecordTypeSchema: Hashable, Sendable {
    /// The field kinds a schema can name; a list is `list<KIND>` of one of these.
    public static let scalarKinds = ["string", "int", "double", "bytes", "date", "location", "reference", "asset"]

    public var type: String
    /// Field name → kind (`string`, `int`, …, `list<string>`). Only looked up, never listed.
    public var fields: [String: String]

    public init(type: String, fields: [String: String]) {
        self.type = type; self.fields = fields
    }

    /// Is `kind` a kind a field can be declared with?
    public static func isKind(_ kind: String) -> Bool {
        if scalarKinds.contains(kind) { return true }
        guard kind.hasPrefix("list<"), kind.hasSuffix(">") else { return false }
        return scalarKinds.contains(String(kind.dropFirst(5).dropLast()))
    }
}
