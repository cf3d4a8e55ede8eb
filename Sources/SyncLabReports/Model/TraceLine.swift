import SyncLabJSON
import SyncLabHistory

/// One line of a saved `trace.jsonl`, read lazily: `read` finds where each top-level member's key
/// and value lie, and the accessors decode only the members a report asks for.
///
/// A day of 50 devices is millions of trace lines; building a `JSONNode` tree for each (every
/// string and number allocated, positions kept) made reading a saved run take many seconds.
/// Trace lines are flat objects written by the project's own writer, so most values are short
/// strings and integers that decode straight from the bytes. Anything unusual (an escape in a
/// string, a nested value, a line that is JSON5 rather than the writer's JSON) goes through
/// JSONText's one reader, so the results are the same as parsing the whole line would give.
///
/// One value is reused for every line (`read` keeps the member table's storage), so reading a
/// line allocates nothing but the strings asked for.
struct TraceLine {
    /// Where one member lies in `bytes`: the key without its quotes, the value as written.
    private struct Member {
        var key: Range<Int>
        var value: Range<Int>
    }

    /// The whole trace (shared, not copied), or the compact rendering of a line the fast scan
    /// could not read.
    private var bytes: [UInt8]
    private let trace: [UInt8]
    private var members: [Member] = []

    init(trace: [UInt8]) {
        self.trace = trace
        bytes = trace
    }

    /// Reads the line at `range` of the trace.
    /// - Throws: the reader's error when the line is not a JSON object.
    /// - Complexity: O(length of the line).
    mutating func read(_ range: Range<Int>) throws(JSONParseError) {
        bytes = trace
        if scan(range) { return }
        // Not in the writer's shape: let the real reader judge it (and word the error), then
        // read its compact rendering, which always scans.
        let node = try JSON5Reader.parse(bytes: Array(trace[range]))
        guard case .object = node.value else {
            throw JSONParseError(message: "a trace line must be a JSON object", position: node.position)
        }
        bytes = Array(node.compactText.utf8)
        _ = scan(0..<bytes.count)
    }

    // MARK: members

    /// The member's string value; nil when missing or not a string.
    func string(_ key: String) -> String? {
        guard let value = valueRange(key), bytes[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inside = (value.lowerBound + 1)..<(value.upperBound - 1)
        if !bytes[inside].contains(UInt8(ascii: "\\")) { return String(decoding: bytes[inside], as: UTF8.self) }
        return node(key)?.string
    }

    /// The line's event (`ev`), as `string("ev").flatMap(TraceEventKind.init(rawValue:))` gives
    /// it, matched on the bytes: building the string and matching it against each case's raw
    /// value in turn was most of the cost of the millions of lines a report reads.
    func eventKind() -> TraceEventKind? {
        guard let value = valueRange("ev"), bytes[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inside = (value.lowerBound + 1)..<(value.upperBound - 1)
        if bytes[inside].contains(UInt8(ascii: "\\")) { return string("ev").flatMap(TraceEventKind.init(rawValue:)) }
        for (name, kind) in Self.eventNames where name.count == inside.count && bytes[inside].elementsEqual(name) { return kind }
        return nil
    }

    /// Every event's name as UTF-8, for `eventKind`.
    private static let eventNames: [([UInt8], TraceEventKind)] = TraceEventKind.allCases.map { (Array($0.rawValue.utf8), $0) }

    /// The member's integer value; nil when missing or not an integer.
    func int64(_ key: String) -> Int64? {
        guard let value = valueRange(key) else { return nil }
        var index = value.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Up to 18 digits cannot overflow; longer numbers, and leading zeros (an error to the
        // reader), are left to the reader.
        guard index < value.upperBound, value.upperBound - index <= 18,
              bytes[index] != UInt8(ascii: "0") || value.upperBound - index == 1 else { return node(key)?.int64 }
        var magnitude: Int64 = 0
        while index < value.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude * 10 + Int64(digit)
            index += 1
        }
        return negative ? -magnitude : magnitude
    }

    /// The member's boolean value; nil when missing or not a boolean.
    func bool(_ key: String) -> Bool? {
        guard let value = valueRange(key) else { return nil }
        if bytes[value].elementsEqual("true".utf8) { return true }
        if bytes[value].elementsEqual("false".utf8) { return false }
        return nil
    }

    /// The member's value parsed by JSONText's reader: for nested values and exact re-rendering.
    func node(_ key: String) -> JSONNode? {
        guard let value = valueRange(key) else { return nil }
        return try? JSON5Reader.parse(bytes: Array(bytes[value]))
    }

    private func valueRange(_ key: String) -> Range<Int>? {
        var key = key
        return key.withUTF8 { wanted in
            for member in members where member.key.count == wanted.count {
                var offset = 0
                while offset < wanted.count && bytes[member.key.lowerBound + offset] == wanted[offset] { offset += 1 }
                if offset == wanted.count { return member.value }
            }
            return nil
        }
    }

    // MARK: scanning

    /// Locates the members of the JSON object at `range`: `{"key":value,…}`, whitespace allowed
    /// between tokens. False when the line is in any other shape. (A repeated key, which the
    /// writer never produces, is not looked for: the first one is read.)
    private mutating func scan(_ range: Range<Int>) -> Bool {
        members.removeAll(keepingCapacity: true)
        var index = skipSpace(range.lowerBound, range.upperBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "{") else { return false }
        index = skipSpace(index + 1, range.upperBound)
        if index < range.upperBound && bytes[index] == UInt8(ascii: "}") {
            return skipSpace(index + 1, range.upperBound) == range.upperBound
        }
        while true {
            guard index < range.upperBound, bytes[index] == UInt8(ascii: "\""),
                  let keyEnd = stringEnd(index, range.upperBound) else { return false }
            let key = (index + 1)..<(keyEnd - 1)
            index = skipSpace(keyEnd, range.upperBound)
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ":") else { return false }
            index = skipSpace(index + 1, range.upperBound)
            guard let valueEnd = valueEnd(index, range.upperBound) else { return false }
            members.append(Member(key: key, value: index..<valueEnd))
            index = skipSpace(valueEnd, range.upperBound)
            guard index < range.upperBound else { return false }
            if bytes[index] == UInt8(ascii: "}") { return skipSpace(index + 1, range.upperBound) == range.upperBound }
            guard bytes[index] == UInt8(ascii: ",") else { return false }
            index = skipSpace(index + 1, range.upperBound)
        }
    }

    private func skipSpace(_ start: Int, _ end: Int) -> Int {
        var index = start
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        return index
    }

    /// The index after the closing quote of the string opening at `start`; nil if unterminated.
    private func stringEnd(_ start: Int, _ end: Int) -> Int? {
        var index = start + 1
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The index after the value starting at `start`: a string, a balanced object or array, or a
    /// bare word of letters, digits, `+`, `-` and `.` (a number, `true`, `false`, `null`). Nil
    /// when there is none, or when anything else starts (a JSON5 single-quoted string or comment:
    /// the line then goes to the reader). The value's own validity is judged when it is decoded,
    /// by `int64`, `bool` or the reader.
    private func valueEnd(_ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(start, end)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0, index = start
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let after = stringEnd(index, end) else { return nil }
                    index = after
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0D: return index > start ? index : nil
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): index += 1
                default: return nil
                }
            }
            return index > start ? index : nil
        }
    }
}
