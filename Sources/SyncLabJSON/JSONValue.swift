/// A parsed JSON value, keeping what Foundation's decoders blur: member order, duplicate-free
/// keys and the number kind (`1` is `.integer`, `1.0` and `1e3` are `.double`).
public indirect enum JSONValue: Sendable {
    /// Members in file order.
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    case integer(Int64)
    /// An integer literal beyond the signed 64-bit range, as its decimal text (`-` and digits,
    /// no leading zeros): kept rather than refused, so that each field's reader decides what it
    /// accepts and its error names the field's path. A seed takes up to 2^64 − 1
    /// (`unsignedValue`); other fields refuse it.
    case largeInteger(String)
    case double(Double)
    case bool(Bool)
    case null

    /// What the value is, with an article, for messages: `an object`, `a string`, `an integer`.
    public var kindDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .integer, .largeInteger: return "an integer"
        case .double: return "a number with a fraction"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    /// A short rendering for "got …" in messages: strings quoted (cut after 40 characters),
    /// numbers and literals as written, containers by kind.
    public var shortDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text):
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            var output = ""
            JSON.writeString(cut, into: &output)
            return output
        case .integer(let value): return String(value)
        case .largeInteger(let digits): return digits
        case .double(let value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return JSON.format(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// The value as an unsigned 64-bit integer: a non-negative integer up to 2^64 − 1, else nil.
    public var unsignedValue: UInt64? {
        switch self {
        case .integer(let value): return value >= 0 ? UInt64(value) : nil
        case .largeInteger(let digits): return UInt64(digits)
        case .object, .array, .string, .double, .bool, .null: return nil
        }
    }
}
