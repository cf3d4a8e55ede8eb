/// A JSON value read back from a saved `trace.jsonl` or `result.json`.
///
/// Reports are drawn from the saved files, never from the engines' memory, so `synclab run` and
/// `synclab report` give the same bytes by construction. Numbers keep their source text (an
/// `Int64` stays exact; a double is re-rendered exactly as it was written), objects keep their key
/// order: re-rendering a value gives back the bytes the writer produced.
public enum SavedJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number as written (`42`, `-3`, `0.5`, `1.0e-3`).
    case number(String)
    case string(String)
    case array([SavedJSON])
    /// Members in file order.
    case object([(String, SavedJSON)])

    public static func == (lhs: SavedJSON, rhs: SavedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object (the first, if repeated); nil otherwise.
    public subscript(_ key: String) -> SavedJSON? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.0 == key { return member.1 }
        return nil
    }

    public var string: String? { if case .string(let text) = self { return text }; return nil }
    public var bool: Bool? { if case .bool(let flag) = self { return flag }; return nil }
    public var int64: Int64? { if case .number(let text) = self { return Int64(text) }; return nil }
    public var array: [SavedJSON]? { if case .array(let elements) = self { return elements }; return nil }
    public var members: [(String, SavedJSON)]? { if case .object(let members) = self { return members }; return nil }

    /// Compact JSON text, as the project's writer renders it (no spaces; strings escaped the same way).
    public func rendered() -> String {
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): SavedJSON.quote(text, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.render(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                SavedJSON.quote(member.0, into: &out)
                out += ":"
                member.1.render(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
