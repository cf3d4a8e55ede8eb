/// The JSON5 reader's state: a byte cursor that tracks line and column. Used by `JSON5Reader`.
///
/// Input has been checked to be UTF-8 without NUL bytes before this runs.
struct JSON5Parser {
    /// An object or array being read, innermost last on the stack.
    ///
    /// Its members or elements so far are not in the frame: they wait on the parser's shared
    /// `pendingMembers` / `pendingElements` stacks from `base` on, and move into the container
    /// once, when it closes. (A frame holding its own array, taken off the stack and put back per
    /// element, copied the whole array at every element: 40,000 steps took 13 s.)
    private struct Frame {
        var isObject: Bool
        var start: SourcePosition
        /// Where this container's members (object) or elements (array) start on the pending stack.
        var base: Int
        /// The keys seen, to reject duplicates; filled only for large objects (see `earlierPosition`).
        var keys: [String: SourcePosition] = [:]
        /// The key whose value is being read (objects).
        var key = ""
        var keyPosition = SourcePosition(line: 0, column: 0)
        /// That key repeats an earlier one: its value is read, then dropped (the first value stands).
        var duplicate = false
    }

    /// Members of the objects being read, innermost object's last (see `Frame.base`).
    private var pendingMembers: [JSONMember] = []
    /// Elements of the arrays being read, innermost array's last.
    private var pendingElements: [JSONNode] = []
    /// Members and elements moved into finished containers so far: each moves exactly once, so
    /// this equals the number of members and elements in the document (a test holds the parser
    /// to it: reading stays linear).
    private(set) var movedCount = 0

    private let bytes: [UInt8]
    /// Duplicate keys found so far, in file order. They do not stop the parse, so a scenario's
    /// other errors are reported with them (each keeps its first value).
    private(set) var duplicates: [JSONParseError] = []
    private var index = 0
    private var line = 1
    private var column = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1; column = 1
        } else if byte == 0x0D {
            if peek() == 0x0A { column += 1 } else { line += 1; column = 1 }
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func fail(_ message: String, at position: SourcePosition) -> JSONParseError {
        JSONParseError(message: message, position: position)
    }

    // MARK: - Document and containers

    mutating func parseDocument() throws(JSONParseError) -> JSONNode {
        try skipTrivia()
        if peek() == nil {
            throw fail("empty input: expected a JSON value (a scenario is an object: { … })", at: position)
        }
        let root = try parseValue()
        try skipTrivia()
        if peek() != nil {
            throw fail("unexpected text after the end of the JSON value", at: position)
        }
        return root
    }

    /// Reads one value, containers included, without recursion.
    /// - Complexity: O(n) in the bytes read: each member and element is appended once to a
    ///   pending stack and moved once into its container.
    private mutating func parseValue() throws(JSONParseError) -> JSONNode {
        var stack: [Frame] = []
        nextValue: while true {
            try skipTrivia()
            let start = position
            guard let byte = peek() else {
                throw fail("unexpected end of input: expected a value", at: start)
            }
            var completed: JSONNode
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                if stack.count + 1 > JSON5Reader.maximumDepth {
                    throw fail("nesting deeper than \(JSON5Reader.maximumDepth) levels", at: start)
                }
                advance()
                try skipTrivia()
                if byte == UInt8(ascii: "{") {
                    if peek() == UInt8(ascii: "}") {
                        advance()
                        completed = JSONNode(value: .object([]), position: start)
                    } else {
                        let (key, keyPosition) = try parseKey(openedAt: start)
                        try expectColon(after: key)
                        stack.append(Frame(isObject: true, start: start, base: pendingMembers.count, key: key, keyPosition: keyPosition))
                        continue nextValue
                    }
                } else {
                    if peek() == UInt8(ascii: "]") {
                        advance()
                        completed = JSONNode(value: .array([]), position: start)
                    } else {
                        stack.append(Frame(isObject: false, start: start, base: pendingElements.count))
                        continue nextValue
                    }
                }
            } else {
                completed = try parseScalar()
            }
            // Attach the finished value to its container; close containers that end here. The
            // frame is changed in place (`stack[top]`), never copied out and back.
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].isObject {
                    if !stack[top].duplicate {
                        pendingMembers.append(JSONMember(key: stack[top].key, keyPosition: stack[top].keyPosition, value: completed))
                    }
                    try skipTrivia()
                    if peek() == UInt8(ascii: ",") {
                        advance()
                        try skipTrivia()
                        if peek() == UInt8(ascii: "}") {
                            advance()
                            completed = closeObject(stack.removeLast())
                            continue
                        }
                        let (nextKey, nextKeyPosition) = try parseKey(openedAt: stack[top].start)
                        var duplicate = false
                        if let first = JSON5Parser.earlierPosition(of: nextKey, at: nextKeyPosition, in: pendingMembers[stack[top].base...], index: &stack[top].keys) {
                            duplicates.append(JSONParseError(message: "duplicate key \"\(nextKey)\" (first at line \(first.line), column \(first.column))",
                                                             position: nextKeyPosition, path: path(stack.dropLast(), then: nextKey)))
                            duplicate = true
                        }
                        try expectColon(after: nextKey)
                        stack[top].key = nextKey
                        stack[top].keyPosition = nextKeyPosition
                        stack[top].duplicate = duplicate
                        continue nextValue
                    } else if peek() == UInt8(ascii: "}") {
                        advance()
                        completed = closeObject(stack.removeLast())
                    } else if peek() == nil {
                        let objectStart = stack[top].start
                        throw fail("unterminated object (opened at line \(objectStart.line), column \(objectStart.column)): expected ',' or '}'", at: position)
                    } else {
                        throw fail("expected ',' or '}' after object member", at: position)
                    }
                } else {
                    pendingElements.append(completed)
                    try skipTrivia()
                    if peek() == UInt8(ascii: ",") {
                        advance()
                        try skipTrivia()
                        if peek() == UInt8(ascii: "]") {
                            advance()
                            completed = closeArray(stack.removeLast())
                            continue
                        }
                        continue nextValue
                    } else if peek() == UInt8(ascii: "]") {
                        advance()
                        completed = closeArray(stack.removeLast())
                    } else if peek() == nil {
                        let arrayStart = stack[top].start
                        throw fail("unterminated array (opened at line \(arrayStart.line), column \(arrayStart.column)): expected ',' or ']'", at: position)
                    } else {
                        throw fail("expected ',' or ']' after array element", at: position)
                    }
                }
            }
            return completed
        }
    }

    /// The finished object of `frame`: its members move off the pending stack.
    private mutating func closeObject(_ frame: Frame) -> JSONNode {
        let members = Array(pendingMembers[frame.base...])
        pendingMembers.removeSubrange(frame.base...)
        movedCount += members.count
        return JSONNode(value: .object(members), position: frame.start)
    }

    /// The finished array of `frame`: its elements move off the pending stack.
    private mutating func closeArray(_ frame: Frame) -> JSONNode {
        let elements = Array(pendingElements[frame.base...])
        pendingElements.removeSubrange(frame.base...)
        movedCount += elements.count
        return JSONNode(value: .array(elements), position: frame.start)
    }

    /// The path of a member named `key` inside the containers `frames` (outermost first), in
    /// the scenario errors' notation: `steps[3].value`.
    private func path(_ frames: ArraySlice<Frame>, then key: String) -> String {
        // Each array's elements so far run up to where the next array's begin: counted from the
        // innermost out, so a path costs O(depth).
        var counts: [Int] = []
        var end = pendingElements.count
        for frame in frames.reversed() where !frame.isObject {
            counts.append(end - frame.base)
            end = frame.base
        }
        var path = ""
        for frame in frames {
            if frame.isObject {
                path += path.isEmpty ? frame.key : ".\(frame.key)"
            } else {
                path += "[\(counts.removeLast())]"
            }
        }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    /// Objects with fewer members are searched for a duplicate key one by one: cheaper than hashing
    /// for the small objects most files hold; larger ones get a dictionary, so a hostile object with
    /// many keys stays linear.
    private static let indexedObjectSize = 16

    /// Where a member named `key` already stands in `members`, or nil; `index` is the key index of
    /// a large object (built here on first need, and `key` added to it when new).
    private static func earlierPosition(of key: String, at position: SourcePosition, in members: ArraySlice<JSONMember>, index: inout [String: SourcePosition]) -> SourcePosition? {
        if members.count < indexedObjectSize {
            return members.first(where: { $0.key == key })?.keyPosition
        }
        if index.isEmpty {
            for member in members { index[member.key] = member.keyPosition }
        }
        if let first = index[key] { return first }
        index[key] = position
        return nil
    }

    private mutating func parseKey(openedAt objectStart: SourcePosition) throws(JSONParseError) -> (String, SourcePosition) {
        let start = position
        guard let byte = peek() else {
            throw fail("unterminated object (opened at line \(objectStart.line), column \(objectStart.column)): expected a key or '}'", at: start)
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return (try parseString(), start)
        }
        if JSON5Parser.isIdentifierStart(byte) {
            return (parseIdentifier(), start)
        }
        throw fail("expected a key (a string, or a name like seed) or '}' in object, got \(describeCharacter())", at: start)
    }

    private mutating func expectColon(after key: String) throws(JSONParseError) {
        try skipTrivia()
        guard peek() == UInt8(ascii: ":") else {
            throw fail("expected ':' after key \"\(key)\"", at: position)
        }
        advance()
    }

    // MARK: - Scalars

    private mutating func parseScalar() throws(JSONParseError) -> JSONNode {
        let start = position
        let byte = peek()!
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return JSONNode(value: .string(try parseString()), position: start)
        }
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || JSON5Parser.isDigit(byte) {
            return JSONNode(value: try parseNumber(), position: start)
        }
        if JSON5Parser.isIdentifierStart(byte) {
            let word = parseIdentifier()
            switch word {
            case "true": return JSONNode(value: .bool(true), position: start)
            case "false": return JSONNode(value: .bool(false), position: start)
            case "null": return JSONNode(value: .null, position: start)
            case "Infinity": return JSONNode(value: .double(.infinity), position: start)
            case "NaN": return JSONNode(value: .double(.nan), position: start)
            default: throw fail("unexpected word '\(word)': strings need quotes", at: start)
            }
        }
        throw fail("expected a value, got \(describeCharacter())", at: start)
    }

    /// The character at the cursor, quoted, for messages.
    private func describeCharacter() -> String {
        guard index < bytes.count else { return "the end of input" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + "'"
    }

    private mutating func parseIdentifier() -> String {
        let startIndex = index
        while let byte = peek(), JSON5Parser.isIdentifierPart(byte) { advance() }
        return String(decoding: bytes[startIndex..<index], as: UTF8.self)
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            advance()
        }
        if let byte = peek(), JSON5Parser.isIdentifierStart(byte) {
            let word = parseIdentifier()
            switch word {
            case "Infinity": return .double(negative ? -.infinity : .infinity)
            case "NaN": return .double(.nan)
            default: throw fail("expected a number after the sign, got '\(word)'", at: start)
            }
        }
        // Hexadecimal integer.
        if peek() == UInt8(ascii: "0"), let x = peek(1), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            advance(); advance()
            var magnitude: UInt64 = 0
            var digits = 0
            while let byte = peek(), let digit = JSON5Parser.hexValue(byte) {
                let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 16)
                if overflow { throw fail("hexadecimal integer is too large for 64 bits", at: start) }
                magnitude = shifted + UInt64(digit)
                digits += 1
                advance()
            }
            guard digits > 0 else { throw fail("expected hexadecimal digits after 0x", at: start) }
            try checkNumberEnd(start)
            return JSON5Parser.integer(magnitude, negative: negative)
        }
        if let value = plainInteger(negative: negative) {
            try checkNumberEnd(start)
            return .integer(value)
        }
        var text = negative ? "-" : ""
        var integerDigits = 0, fractionDigits = 0
        var isDouble = false
        let integerStart = index
        while let byte = peek(), JSON5Parser.isDigit(byte) { text.append(Character(UnicodeScalar(byte))); integerDigits += 1; advance() }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw fail("leading zeros are not allowed in numbers", at: start)
        }
        if peek() == UInt8(ascii: ".") {
            isDouble = true
            advance()
            text += integerDigits == 0 ? "0." : "."
            while let byte = peek(), JSON5Parser.isDigit(byte) { text.append(Character(UnicodeScalar(byte))); fractionDigits += 1; advance() }
            if fractionDigits == 0 { text += "0" }
        }
        guard integerDigits + fractionDigits > 0 else { throw fail("expected digits in number", at: start) }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isDouble = true
            advance()
            text += "e"
            if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                text.append(Character(UnicodeScalar(sign))); advance()
            }
            var exponentDigits = 0
            while let byte = peek(), JSON5Parser.isDigit(byte) { text.append(Character(UnicodeScalar(byte))); exponentDigits += 1; advance() }
            guard exponentDigits > 0 else { throw fail("expected digits in the exponent of a number", at: start) }
        }
        try checkNumberEnd(start)
        if isDouble {
            guard let value = Double(text) else { throw fail("invalid number \(text)", at: start) }
            return .double(value)
        }
        guard let value = Int64(text) else {
            // Not an error here: the field's reader knows whether it takes it (a seed up to
            // 2^64 − 1) and can name the field. Leading zeros were refused above.
            return .largeInteger(text)
        }
        return .integer(value)
    }

    /// Reads the digits at the cursor as an integer when they are the common case: 1 to 18 digits
    /// (so no overflow), no leading zero, no fraction or exponent following. Otherwise nil, with
    /// the cursor unmoved, and the general path reads the number (and words its errors).
    private mutating func plainInteger(negative: Bool) -> Int64? {
        var end = index
        var magnitude: Int64 = 0
        while end < bytes.count, JSON5Parser.isDigit(bytes[end]), end - index < 18 {
            magnitude = magnitude * 10 + Int64(bytes[end] - 0x30)
            end += 1
        }
        let digits = end - index
        guard digits > 0, digits == 1 || bytes[index] != UInt8(ascii: "0") else { return nil }
        if end < bytes.count {
            let next = bytes[end]
            if JSON5Parser.isDigit(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        }
        index = end
        column += digits
        return negative ? -magnitude : magnitude
    }

    /// A number must not run straight into letters or digits (`12ab`, `1.2.3`).
    private func checkNumberEnd(_ start: SourcePosition) throws(JSONParseError) {
        if let byte = peek(), JSON5Parser.isIdentifierPart(byte) || byte == UInt8(ascii: ".") {
            throw fail("invalid number: unexpected \(describeCharacter()) after it (durations and sizes are strings: \"5s\", \"3MB\")", at: start)
        }
    }

    /// A hexadecimal literal's value: `.integer` when it fits in 64 signed bits, else
    /// `.largeInteger` with its decimal digits (as for a decimal literal).
    private static func integer(_ magnitude: UInt64, negative: Bool) -> JSONValue {
        if negative {
            if magnitude <= UInt64(Int64.max) + 1 { return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)) }
            return .largeInteger("-" + String(magnitude))
        }
        if magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        return .largeInteger(String(magnitude))
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        let quote = peek()!
        advance()
        var buffer: [UInt8] = []
        while true {
            let runStart = index
            skipPlainStringBytes(quote: quote)
            if index > runStart {
                if peek() == quote && buffer.isEmpty {
                    advance()
                    return String(decoding: bytes[runStart..<(index - 1)], as: UTF8.self)
                }
                buffer.append(contentsOf: bytes[runStart..<index])
            }
            guard let byte = peek() else {
                throw fail("unterminated string", at: start)
            }
            if byte == quote { advance(); break }
            if byte == 0x0A || byte == 0x0D {
                throw fail("unterminated string (a string cannot span lines; write \\n for a line break)", at: start)
            }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte); advance(); continue
            }
            let escapeStart = position
            advance()
            guard let escape = peek() else { throw fail("unterminated string", at: start) }
            advance()
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "v"): buffer.append(0x0B)
            case UInt8(ascii: "0"):
                if let next = peek(), JSON5Parser.isDigit(next) { throw fail("octal escapes are not allowed", at: escapeStart) }
                buffer.append(0x00)
            case 0x0A: break // Line continuation.
            case 0x0D: if peek() == 0x0A { advance() }
            case UInt8(ascii: "x"):
                let value = try hexDigits(2, escapeStart)
                appendScalar(UnicodeScalar(UInt8(value)), to: &buffer)
            case UInt8(ascii: "u"):
                let high = try hexDigits(4, escapeStart)
                if (0xD800...0xDBFF).contains(high) {
                    guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                        throw fail("invalid \\u escape: high surrogate without a low surrogate", at: escapeStart)
                    }
                    advance(); advance()
                    let low = try hexDigits(4, escapeStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("invalid \\u escape: high surrogate without a low surrogate", at: escapeStart)
                    }
                    let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    appendScalar(UnicodeScalar(combined)!, to: &buffer)
                } else if (0xDC00...0xDFFF).contains(high) {
                    throw fail("invalid \\u escape: unpaired low surrogate", at: escapeStart)
                } else {
                    appendScalar(UnicodeScalar(high)!, to: &buffer)
                }
            default:
                throw fail("unknown escape '\\\(String(decoding: [escape], as: UTF8.self))' in string", at: escapeStart)
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Moves the cursor over string bytes that stand for themselves: not the closing quote, a
    /// backslash or a line break. Such bytes only move the column (one per character).
    private mutating func skipPlainStringBytes(quote: UInt8) {
        var end = index, characters = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == quote || byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D { break }
            if byte & 0xC0 != 0x80 { characters += 1 }
            end += 1
        }
        index = end
        column += characters
    }

    private mutating func hexDigits(_ count: Int, _ escapeStart: SourcePosition) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let byte = peek(), let digit = JSON5Parser.hexValue(byte) else {
                throw fail("invalid escape: expected \(count) hexadecimal digits", at: escapeStart)
            }
            value = value * 16 + UInt32(digit)
            advance()
        }
        return value
    }

    private func appendScalar(_ scalar: UnicodeScalar, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    // MARK: - Whitespace and comments

    private mutating func skipTrivia() throws(JSONParseError) {
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                advance()
            case 0xC2 where peek(1) == 0xA0: // No-break space.
                advance(); advance()
            case 0xEF where peek(1) == 0xBB && peek(2) == 0xBF: // Byte-order mark.
                advance(); advance(); advance()
            case UInt8(ascii: "/"):
                let start = position
                if peek(1) == UInt8(ascii: "/") {
                    while let next = peek(), next != 0x0A, next != 0x0D { advance() }
                } else if peek(1) == UInt8(ascii: "*") {
                    advance(); advance()
                    while true {
                        guard let next = peek() else { throw fail("unterminated /* comment", at: start) }
                        if next == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") { advance(); advance(); break }
                        advance()
                    }
                } else {
                    return
                }
            default:
                return
            }
        }
    }

    // MARK: - Character classes

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
