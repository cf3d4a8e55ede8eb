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
    /// An unsigned integer, for values that may exceed `Int64.max` (a seed is any `UInt64`):
    /// written in full, never as the negative number its bit pattern would be.
    case uint(UInt64)
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
        var bytes: [UInt8] = []
        write(into: &bytes, indent: nil, depth: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Two-space indentation, `"key": value`, ending with a newline.
    public func renderedPretty() -> String {
        var bytes: [UInt8] = []
        write(into: &bytes, indent: Array("  ".utf8), depth: 0)
        bytes.append(UInt8(ascii: "\n"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact rendering's UTF-8 bytes: what `rendered()` gives, without making a
    /// String of it (trace lines go straight into the trace's bytes).
    public func write(into bytes: inout [UInt8]) {
        write(into: &bytes, indent: nil, depth: 0)
    }

    // The one renderer: UTF-8 bytes, so nothing is appended a character at a time.
    private func write(into bytes: inout [UInt8], indent: [UInt8]?, depth: Int) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSON.writeDecimal(value, into: &bytes)
        case .uint(let value): JSON.writeDecimal(value, negative: false, into: &bytes)
        case .double(let value): bytes.append(contentsOf: JSON.format(value).utf8)
        case .string(let value): JSON.writeString(value, into: &bytes)
        case .array(let elements):
            if elements.isEmpty { bytes.append(contentsOf: "[]".utf8); return }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSON.newline(&bytes, indent, depth + 1)
                element.write(into: &bytes, indent: indent, depth: depth + 1)
            }
            JSON.newline(&bytes, indent, depth)
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            if fields.isEmpty { bytes.append(contentsOf: "{}".utf8); return }
            bytes.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSON.newline(&bytes, indent, depth + 1)
                JSON.writeString(field.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if indent != nil { bytes.append(UInt8(ascii: " ")) }
                field.value.write(into: &bytes, indent: indent, depth: depth + 1)
            }
            JSON.newline(&bytes, indent, depth)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ bytes: inout [UInt8], _ indent: [UInt8]?, _ depth: Int) {
        guard let indent else { return }
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { bytes.append(contentsOf: indent) }
    }

    /// Decimal digits, as `String(value)` spells them, without making the String.
    static func writeDecimal(_ value: Int64, into bytes: inout [UInt8]) {
        writeDecimal(value.magnitude, negative: value < 0, into: &bytes)
    }

    /// Decimal digits of `magnitude`, after a `-` when `negative`.
    static func writeDecimal(_ magnitude: UInt64, negative: Bool, into bytes: inout [UInt8]) {
        if negative { bytes.append(UInt8(ascii: "-")) }
        var magnitude = magnitude
        let start = bytes.endIndex
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
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
        var bytes: [UInt8] = []
        writeString(value, into: &bytes)
        output.append(String(decoding: bytes, as: UTF8.self))
    }

    /// RFC 8259 escaping into UTF-8 bytes. Multi-byte sequences never contain a byte below 0x80,
    /// so escaping byte by byte is escaping scalar by scalar; the runs between escapes (almost
    /// always the whole string) are appended whole.
    public static func writeString(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value // `withUTF8` needs it mutable; a native string is not copied
        value.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                writeEscape(byte, into: &bytes)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape of one byte `writeString` does not copy: the short forms, else `\u00xx`.
    private static func writeEscape(_ byte: UInt8, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}

/// One member of a `JSON.object`.
public struct JSONField: Sendable, Equatable {
    public var key: String
    public var value: JSON
    public init(_ key: String, _ value: JSON) { self.key = key; self.value = value }
}
