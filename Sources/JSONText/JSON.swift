/// An output JSON tree, rendered deterministically (SPEC §2).
///
/// Object members render in the order given (results list keys in the order SPEC §7 lists
/// them); `sortedObject` sorts by the UTF-8 bytes of the keys, for maps. Doubles always carry a
/// decimal point (`1.0`, `1.0e-05`), so a double never reads back as an integer.
///
/// Objects: tuples cannot be `Equatable`, so the case is `.object([JSONField])`; build one with
/// the convenience `JSON.object([("key", value), …])` (order kept) or `JSON.sortedObject(…)`.
/// An empty object is `.object([JSONField]())` (a bare `[]` is ambiguous between the two).
public indirect enum JSON: Sendable, Equatable {
    case object([JSONField])
    case array([JSON])
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null

    /// An object with members in the given order.
    public static func object(_ members: [(String, JSON)]) -> JSON {
        .object(members.map { JSONField($0.0, $0.1) })
    }

    /// An object with members sorted by the UTF-8 bytes of their keys (for maps).
    public static func sortedObject(_ members: [(String, JSON)]) -> JSON {
        .object(members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map { JSONField($0.0, $0.1) })
    }

    /// Compact, one line, no spaces: `{"a":1,"b":[true,null]}`.
    public func rendered() -> String {
        var output = ""
        write(into: &output, indent: nil, depth: 0)
        return output
    }

    /// Two-space indentation, `"key": value`, ending with a newline.
    public func renderedPretty() -> String {
        var output = ""
        write(into: &output, indent: "  ", depth: 0)
        output.append("\n")
        return output
    }

    private func write(into output: inout String, indent: String?, depth: Int) {
        switch self {
        case .null: output.append("null")
        case .bool(let value): output.append(value ? "true" : "false")
        case .int(let value): output.append(String(value))
        case .double(let value): output.append(JSON.format(value))
        case .string(let value): JSON.writeString(value, into: &output)
        case .array(let elements):
            if elements.isEmpty { output.append("[]"); return }
            output.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(",") }
                JSON.newline(&output, indent, depth + 1)
                element.write(into: &output, indent: indent, depth: depth + 1)
            }
            JSON.newline(&output, indent, depth)
            output.append("]")
        case .object(let fields):
            if fields.isEmpty { output.append("{}"); return }
            output.append("{")
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(",") }
                JSON.newline(&output, indent, depth + 1)
                JSON.writeString(field.key, into: &output)
                output.append(indent == nil ? ":" : ": ")
                field.value.write(into: &output, indent: indent, depth: depth + 1)
            }
            JSON.newline(&output, indent, depth)
            output.append("}")
        }
    }

    private static func newline(_ output: inout String, _ indent: String?, _ depth: Int) {
        guard let indent else { return }
        output.append("\n")
        for _ in 0..<depth { output.append(indent) }
    }

    /// Shortest round-trip digits, always with a decimal point; non-finite values become null.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        var text = value.description // e.g. "1.0", "0.1", "1e-05", "1.5e+20"
        if let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            let mantissa = text[..<exponent]
            if !mantissa.contains(".") { text = mantissa + ".0" + text[exponent...] }
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }

    /// RFC 8259 escaping: quotes, backslash, control characters; other text stays UTF-8.
    public static func writeString(_ value: String, into output: inout String) {
        output.append("\"")
        // Almost every string in a trace needs no escape: appending it whole is the same bytes
        // as the loop below, without growing the output one scalar at a time.
        guard needsEscaping(value) else {
            output.append(value)
            output.append("\"")
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }

    /// True if any UTF-8 byte of `value` is one `writeString` escapes: `"`, `\\` or a control
    /// character. Multi-byte sequences never contain these bytes, so a byte scan is exact.
    static func needsEscaping(_ value: String) -> Bool {
        func escaped(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }
        if let found = value.utf8.withContiguousStorageIfAvailable({ $0.contains(where: escaped) }) { return found }
        return value.utf8.contains(where: escaped)
    }
}

/// One member of a `JSON.object`.
public struct JSONField: Sendable, Equatable {
    public var key: String
    public var value: JSON
    public init(_ key: String, _ value: JSON) { self.key = key; self.value = value }
}
