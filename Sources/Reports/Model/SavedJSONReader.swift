/// A strict JSON reader for the files SyncLab itself writes (`trace.jsonl`, `result.json`).
///
/// Scenario files go through JSONText's JSON5 reader, which keeps positions for error messages;
/// saved runs are strict JSON produced by our own writer and can be large (a day of 50 devices is
/// hundreds of thousands of trace lines), so this reader is small and fast: one pass over the
/// UTF-8 bytes, no positions, numbers kept as text.
public struct SavedJSONReader {
    /// Why a saved file could not be read; `offset` is a byte offset into the text given.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "byte \(offset): \(message)" }
    }

    private let bytes: [UInt8]
    private var index: Int

    /// Parses one complete JSON value (surrounding whitespace allowed).
    /// - Complexity: O(n) in the length of `text`.
    public static func parse(_ text: String) throws(Failure) -> SavedJSON {
        try parse(Array(text.utf8)[...])
    }

    /// Parses one complete JSON value from a slice of UTF-8 bytes.
    public static func parse(_ slice: ArraySlice<UInt8>) throws(Failure) -> SavedJSON {
        var reader = SavedJSONReader(bytes: Array(slice), index: 0)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.failure("text after the value") }
        return value
    }

    /// Parses JSON Lines (`trace.jsonl`): one value a line, blank lines ignored.
    /// - Complexity: O(n); the bytes are read in place, not copied per line.
    /// - Parameter skipping: trace events (`"ev"` values) not wanted: their lines are passed over
    ///   without being parsed (a report has no use for `visible` or `log` lines, most of a trace).
    public static func parseLines(_ bytes: [UInt8], skipping: [String] = []) throws(Failure) -> [SavedJSON] {
        var reader = SavedJSONReader(bytes: bytes, index: 0)
        var values: [SavedJSON] = []
        let skipped = skipping.map { Array("\"ev\":\"\($0)\"".utf8) }
        while true {
            reader.skipSpace()
            if reader.index >= reader.bytes.count { return values }
            if !skipped.isEmpty, let lineEnd = reader.skippableLineEnd(skipped) {
                reader.index = lineEnd
                continue
            }
            values.append(try reader.value(depth: 0))
        }
    }

    /// If the line at `index` is `{"t_us":N,"ev":"NAME",…` with NAME one of `patterns`
    /// (`"ev":"NAME"` as bytes), the index of its newline (or the end).
    private func skippableLineEnd(_ patterns: [[UInt8]]) -> Int? {
        var cursor = index
        let limit = min(bytes.count, index + 40)
        // Find `,"ev":"` in the line's first bytes (the trace writer puts it second).
        while cursor < limit && bytes[cursor] != UInt8(ascii: ",") { cursor += 1 }
        guard cursor < limit else { return nil }
        cursor += 1
        var matched = false
        for pattern in patterns where cursor + pattern.count <= bytes.count {
            var equal = true
            for offset in 0..<pattern.count where bytes[cursor + offset] != pattern[offset] { equal = false; break }
            if equal { matched = true; break }
        }
        guard matched else { return nil }
        while cursor < bytes.count && bytes[cursor] != 0x0A { cursor += 1 }
        return cursor
    }

    private init(bytes: [UInt8], index: Int) { self.bytes = bytes; self.index = index }

    private func failure(_ message: String) -> Failure { Failure(offset: index, message: message) }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> SavedJSON {
        guard depth < 200 else { throw failure("nesting deeper than 200") }
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, SavedJSON)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end in an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw failure("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [SavedJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end in an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw failure("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end") }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { throw failure("unknown literal") }
        index += count
    }

    private mutating func number() throws(Failure) -> String {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                guard index > start else { throw failure("unexpected character") }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
        }
        guard index > start else { throw failure("unexpected end") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1 // the opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; return String(decoding: scalars, as: UTF8.self) }
            if byte != UInt8(ascii: "\\") { scalars.append(byte); index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    code = 0x10000 + ((code - 0xD800) << 10) + (low &- 0xDC00)
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw failure("unknown escape")
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("bad hex digit")
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }
}
