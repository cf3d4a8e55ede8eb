/// Reads JSON5 (SPEC §5) into `JSONNode`s that keep key order, positions and number kinds.
///
/// Accepted beyond JSON: `//` and `/* */` comments, trailing commas, unquoted identifier keys
/// (`{seed: 7}`), single-quoted strings, `+1`, `.5`, `5.`, hexadecimal integers (`0x1F`),
/// `Infinity` and `NaN`, the escapes `\'`, `\v`, `\0`, `\xHH` and a backslash before a line break
/// (line continuation). Kept strict where leniency hides mistakes: a duplicate key in one object
/// is an error, unknown escapes (`\q`) are errors, and leading zeros (`007`) are errors.
///
/// Number kinds: a number without a fraction or exponent is `.integer`; an integer outside the
/// 64-bit signed range is `.largeInteger` with its digits (never silently turned into an inexact
/// double), so the reader of each field decides: a seed takes up to 2^64 − 1, other fields
/// refuse it with their path. Anything with `.`, an exponent, `Infinity` or `NaN` is `.double`.
///
/// The parser is iterative (an explicit stack, not recursion), so hostile nesting cannot overflow
/// the thread's stack; nesting deeper than `maximumDepth` is an error. Empty input, NUL bytes and
/// invalid UTF-8 are errors with a position, never a crash.
public enum JSON5Reader {
    /// The deepest nesting of objects and arrays accepted.
    public static let maximumDepth = 256

    /// Parses `text` as one JSON5 value.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONNode {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses raw file bytes as one JSON5 value. A leading UTF-8 byte-order mark is skipped.
    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONNode {
        try checkText(bytes)
        var parser = JSON5Parser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Rejects what is not text: invalid UTF-8 and NUL bytes, with the position of the first.
    static func checkText(_ bytes: [UInt8]) throws(JSONParseError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1, column = 1, offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value == 0 {
                    throw JSONParseError(message: "the input contains a NUL byte: it is binary data, not JSON text", position: SourcePosition(line: line, column: column))
                }
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return
            case .error:
                let byte = offset < bytes.count ? bytes[offset] : 0
                let hex = String(byte, radix: 16, uppercase: true)
                throw JSONParseError(message: "the input is not UTF-8 text (invalid byte 0x\(hex.count < 2 ? "0" + hex : hex)): is it a binary file?", position: SourcePosition(line: line, column: column))
            }
        }
    }
}
