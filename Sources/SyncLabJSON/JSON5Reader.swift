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
    /// A duplicate key is an error here (the first one found).
    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONNode {
        var duplicates: [JSONParseError] = []
        let root = try parse(bytes: bytes, duplicates: &duplicates)
        if let first = duplicates.first { throw first }
        return root
    }

    /// Parses raw file bytes as one JSON5 value, collecting duplicate keys instead of stopping at
    /// the first: each keeps its first value, and `duplicates` lists them in file order, so a
    /// caller can report them together with every other error of the document.
    public static func parse(bytes: [UInt8], duplicates: inout [JSONParseError]) throws(JSONParseError) -> JSONNode {
        try checkText(bytes)
        var parser = JSON5Parser(bytes: bytes)
        let root = try parser.parseDocument()
        duplicates = parser.duplicates
        return root
    }

    /// `parse(bytes:duplicates:)`, also returning how many members and elements the parser moved
    /// into containers: the work count tests hold to the document's size (reading is linear).
    static func parseCountingMoves(bytes: [UInt8]) throws(JSONParseError) -> (root: JSONNode, moved: Int) {
        try checkText(bytes)
        var parser = JSON5Parser(bytes: bytes)
        let root = try parser.parseDocument()
        return (root, parser.movedCount)
    }

    /// Rejects what is not text: invalid UTF-8 and NUL bytes, with the position of the first.
    static func checkText(_ bytes: [UInt8]) throws(JSONParseError) {
        if let encoding = utf16or32(bytes) {
            throw JSONParseError(message: "the file is \(encoding) text, not UTF-8: save it as UTF-8", position: SourcePosition(line: 1, column: 1))
        }
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

    /// "UTF-16 (little-endian)" and the like when `bytes` start like UTF-16 or UTF-32 text: a
    /// byte-order mark, or (for files without one) NUL bytes beside the ASCII of a JSON start.
    static func utf16or32(_ bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(4))
        if head.starts(with: [0xFF, 0xFE, 0, 0]) || (head.count >= 4 && head[1] == 0 && head[2] == 0 && head[3] == 0 && head[0] != 0) { return "UTF-32 (little-endian)" }
        if head.starts(with: [0, 0, 0xFE, 0xFF]) || (head.count >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 0 && head[3] != 0) { return "UTF-32 (big-endian)" }
        // Without a mark, two ASCII characters each beside a NUL: one NUL alone is a binary file.
        let pairs = head.count == 4 && head[0] != 0 && head[2] != 0 && head[0] < 0x80 && head[2] < 0x80
        if head.starts(with: [0xFF, 0xFE]) || (pairs && head[1] == 0 && head[3] == 0) { return "UTF-16 (little-endian)" }
        let swapped = head.count == 4 && head[1] != 0 && head[3] != 0 && head[1] < 0x80 && head[3] < 0x80
        if head.starts(with: [0xFE, 0xFF]) || (swapped && head[0] == 0 && head[2] == 0) { return "UTF-16 (big-endian)" }
        return nil
    }
}
