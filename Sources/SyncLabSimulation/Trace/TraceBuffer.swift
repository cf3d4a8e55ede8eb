import SyncLabKernel
import SyncLabJSON

/// The trace's bytes as they are written: lines are formatted straight into a chunk through a
/// raw pointer (an `Array` append checks uniqueness and capacity at every byte, and was most of
/// the cost of tracing), and each full chunk is handed on whole: to the file, hashed as it
/// goes, or appended to `kept` when the trace stays in memory (and hashed all the same).
///
/// Call `beginLine()` before writing a line and `endLine()` after it; the writes in between
/// may be of any length (a chunk that fills is handed on mid-line: the trace is a byte stream).
struct TraceBuffer {
    /// By default a chunk is handed on once a line ends past this many bytes.
    static let chunkBytes = 1 << 20

    /// A chunk is handed on once a line ends past this many bytes.
    let handOnBytes: Int
    private var chunk: TraceChunk
    /// The chunk's first byte, the next byte to write, and the byte past its end. Writes move
    /// `cursor` (a pointer, not an index: no base + index at each write).
    private var base: UnsafeMutablePointer<UInt8>
    private var cursor: UnsafeMutablePointer<UInt8>
    private var limit: UnsafeMutablePointer<UInt8>
    /// Bytes written into the chunk so far.
    private var count: Int { cursor - base }
    private var capacity: Int { limit - base }
    /// Where full chunks go; nil to keep them in `kept`.
    let file: TraceFileWriter?
    /// Where full chunks go to be hashed: `file`, or without one a writer that only hashes.
    let sink: TraceFileWriter
    /// Without a file: every byte handed on so far.
    private(set) var kept: [UInt8] = []
    /// A chunk is handed on in a whole number of these (the last bytes, fewer, go at the start
    /// of the next chunk), so a file written past the page cache is written straight from the
    /// chunk (`TraceFileWriter.handOverMultiple`); 1 for any other file and without one.
    private let handOverMultiple: Int

    init(file: TraceFileWriter?, chunkBytes: Int = TraceBuffer.chunkBytes) {
        self.file = file
        sink = file ?? TraceFileWriter()
        handOverMultiple = sink.handOverMultiple
        handOnBytes = chunkBytes
        // Room for a full chunk plus the longest common line, so a chunk is handed on at a line's end.
        chunk = TraceChunk(capacity: chunkBytes + Swift.min(chunkBytes, 64 * 1024))
        base = chunk.base
        cursor = chunk.base
        limit = chunk.base + chunk.capacity
    }

    /// Before each line: a copy of the buffer (a copied simulator) gets its own chunk here, once
    /// per line rather than at every byte.
    @inline(__always) mutating func beginLine() {
        if !isKnownUniquelyReferenced(&chunk) { replaceChunk(capacity: capacity) }
    }

    /// After each line: hands the chunk on once it is full enough.
    @inline(__always) mutating func endLine() {
        if count >= handOnBytes { handOn() }
    }

    /// Hands on whatever is in the chunk, and waits for the file (if any) to have it all.
    mutating func flush() {
        if count > 0 { handOn(all: true) }
        sink.finish()
    }

    /// Hands on the chunk's bytes: all of them, or (`all` false) a whole number of
    /// `handOverMultiple` when there are that many, the rest moved to the next chunk's start.
    private mutating func handOn(all: Bool = false) {
        let total = count
        let handed = all || total < handOverMultiple ? total : total - total % handOverMultiple
        if file == nil { kept.append(contentsOf: UnsafeBufferPointer(start: base, count: handed)) }
        // The writer takes the chunk itself (no copy) to hash (and write) and gives one back to
        // go on with. The queues only read the bytes handed to them, so the rest is read here
        // meanwhile (and moved within one chunk, should the writer give the same one back).
        let handedChunk = chunk
        chunk = sink.write(chunk, count: handed)
        base = chunk.base
        let left = total - handed
        if left > 0 { UnsafeMutableRawPointer(base).copyMemory(from: handedChunk.base + handed, byteCount: left) }
        cursor = base + left
        limit = base + chunk.capacity
    }

    private mutating func replaceChunk(capacity newCapacity: Int) {
        let written = count
        chunk = chunk.copy(count: written, capacity: newCapacity)
        base = chunk.base
        cursor = chunk.base + written
        limit = chunk.base + chunk.capacity
    }

    /// Makes room for `byteCount` more bytes: one compare, inline; the rare hand-on is not.
    @inline(__always) private mutating func reserve(_ byteCount: Int) {
        if _slowPath(limit - cursor < byteCount) { makeRoom(byteCount) }
    }

    @inline(never) private mutating func makeRoom(_ byteCount: Int) {
        handOn()
        if limit - cursor < byteCount { replaceChunk(capacity: count + byteCount) }
    }

    /// Copies `byteCount` bytes after `reserve(byteCount)`.
    @inline(__always) private mutating func put(_ source: UnsafePointer<UInt8>, _ byteCount: Int) {
        cursor = Self.copy(source, byteCount, to: cursor)
    }

    /// Writes through a local cursor after one `reserve(byteCount)`: `body` gets the position
    /// to write at and returns where it stopped (at most `byteCount` further). The position
    /// stays in a register across the pieces of a line, where each write through `cursor`
    /// would store it and load it again (a byte written through a pointer may be any memory).
    @inline(__always) mutating func write(atMost byteCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
        reserve(byteCount)
        cursor = body(cursor)
    }

    /// Copies a literal to `target`; returns the position after it.
    @inline(__always) static func copy(_ text: StaticString, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        copy(text.utf8Start, text.utf8CodeUnitCount, to: target)
    }

    /// Writes `value`'s decimal digits (after a minus sign if negative) to `target`, as
    /// `String(value)` spells them; returns the position after them (at most 20 further).
    @inline(__always) static func decimal(_ value: Int64, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var target = target
        if value < 0 { target.pointee = UInt8(ascii: "-"); target += 1 }
        let digitCount = DecimalText.digitCount(value.magnitude)
        DecimalText.write(value.magnitude, digitCount: digitCount, to: UnsafeMutableRawPointer(target))
        return target + digitCount
    }

    /// Copies `byteCount` bytes from `source` to `target`; returns the position after them. Up
    /// to 32 bytes (most of a trace's strings and literals) move as overlapping words, with no
    /// call: a `memmove` call for each piece of a line cost more than the bytes it moved. A
    /// constant count (a literal's) becomes inline moves either way.
    @inline(__always) static func copy(_ source: UnsafePointer<UInt8>, _ byteCount: Int, to destination: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let target = UnsafeMutableRawPointer(destination)
        let from = UnsafeRawPointer(source)
        if byteCount > 32 {
            target.copyMemory(from: from, byteCount: byteCount)
        } else if byteCount > 16 {
            // The first 16 bytes and the last 16, overlapping.
            let first = from.loadUnaligned(as: UInt64.self), second = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = from.loadUnaligned(fromByteOffset: byteCount - 16, as: UInt64.self), fourth = from.loadUnaligned(fromByteOffset: byteCount - 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: third, toByteOffset: byteCount - 16, as: UInt64.self)
            target.storeBytes(of: fourth, toByteOffset: byteCount - 8, as: UInt64.self)
        } else if byteCount >= 8 {
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: byteCount - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: byteCount - 8, as: UInt64.self)
        } else if byteCount >= 4 {
            let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: byteCount - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: byteCount - 4, as: UInt32.self)
        } else if byteCount > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some the same byte).
            target.storeBytes(of: source[0], as: UInt8.self)
            target.storeBytes(of: source[byteCount >> 1], toByteOffset: byteCount >> 1, as: UInt8.self)
            target.storeBytes(of: source[byteCount - 1], toByteOffset: byteCount - 1, as: UInt8.self)
        }
        return destination + byteCount
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        cursor.pointee = byte
        cursor += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        put(source, bytes.count)
    }

    /// A literal, as it is (keys, punctuation: nothing to escape).
    @inline(__always) mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        put(text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Text known to need no escaping (identifiers, enum raw values), without quotes.
    @inline(__always) mutating func appendPlain(_ text: String) {
        withUTF8(of: text) { $0.append($1) }
    }

    /// Runs `body` on `text`'s UTF-8, borrowed where it lies (a `var` copy for `withUTF8` was
    /// a retain and a release per string).
    @inline(__always) private mutating func withUTF8(of text: String, _ body: (inout TraceBuffer, UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable({ body(&self, $0) }) == nil {
            var text = text // not contiguous UTF-8 (a bridged string): made so
            text.withUTF8 { body(&self, $0) }
        }
    }

    /// The decimal digits of `value`, as `String(value)` spells them.
    @inline(__always) mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// The decimal digits of `value`, as `String(value)` spells them: counted, then written
    /// straight into the chunk (`DecimalText`). (Digits written into a stack buffer and copied
    /// over stalled on the copy's load, which the processor cannot forward from the small
    /// stores just made.)
    mutating func appendDecimal(_ value: UInt64) {
        let digitCount = DecimalText.digitCount(value)
        reserve(digitCount)
        DecimalText.write(value, digitCount: digitCount, to: UnsafeMutableRawPointer(cursor))
        cursor += digitCount
    }

    /// A JSON string: quoted, escaped as `JSON.writeString` escapes (RFC 8259: quotes,
    /// backslash, control characters; other text stays UTF-8).
    @inline(__always) mutating func appendString(_ value: String) {
        withUTF8(of: value) { $0.appendQuoted($1) }
    }

    /// `utf8` as a JSON string: a string of up to 16 bytes with nothing to escape (most of a
    /// trace's) is written with its quotes after one reserve, anything else out of line.
    @inline(__always) mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let source = utf8.baseAddress, utf8.count <= 16, !Self.mayNeedEscape(source, utf8.count) {
            let byteCount = utf8.count
            write(atMost: byteCount + 2) { target in
                target.pointee = UInt8(ascii: "\"")
                let end = Self.copy(source, byteCount, to: target + 1)
                end.pointee = UInt8(ascii: "\"")
                return end + 1
            }
        } else {
            append(UInt8(ascii: "\""))
            appendEscaped(utf8)
            append(UInt8(ascii: "\""))
        }
    }

    /// `"DIGITS"`: a number as a JSON string, as `String(value)` spells it, in quotes.
    @inline(__always) mutating func appendQuoted(_ value: UInt64) {
        write(atMost: 22) { target in
            target.pointee = UInt8(ascii: "\"")
            let end = Self.decimal(value, to: target + 1)
            end.pointee = UInt8(ascii: "\"")
            return end + 1
        }
    }

    /// Writes `value`'s decimal digits to `target`; returns the position after them (at most 20).
    @inline(__always) static func decimal(_ value: UInt64, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // One digit (most of a log line's counts) without counting and dividing.
        if value < 10 {
            target.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return target + 1
        }
        let digitCount = DecimalText.digitCount(value)
        DecimalText.write(value, digitCount: digitCount, to: UnsafeMutableRawPointer(target))
        return target + digitCount
    }

    /// A literal as a JSON string (quoted and, should it need it, escaped): an engine's event
    /// name or detail, read where the binary holds it.
    @inline(__always) mutating func appendQuoted(_ text: StaticString) {
        text.withUTF8Buffer { appendQuoted($0) }
    }

    /// `value` escaped as inside a JSON string, without the quotes.
    @inline(__always) mutating func appendEscaped(_ value: String) {
        withUTF8(of: value) { $0.appendEscapedInline($1) }
    }

    /// `utf8` escaped as inside a JSON string: a string of up to 16 bytes with nothing to
    /// escape (most of a trace's) is checked and copied inline, anything else out of line.
    @inline(__always) mutating func appendEscapedInline(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let source = utf8.baseAddress, utf8.count <= 16, !Self.mayNeedEscape(source, utf8.count) {
            reserve(utf8.count)
            put(source, utf8.count)
        } else {
            appendEscaped(utf8)
        }
    }

    /// `utf8` escaped as inside a JSON string, byte by byte, copying the runs between escapes
    /// whole (the callers copy a short string with nothing to escape themselves).
    @inline(never) mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        let byteCount = utf8.count
        var run = 0
        for index in 0..<byteCount {
            let byte = source[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            append(UnsafeBufferPointer(start: source + run, count: index - run))
            appendEscape(byte)
            run = index + 1
        }
        append(UnsafeBufferPointer(start: source + run, count: byteCount - run))
    }

    /// Whether any of the first `byteCount` (at most 16) bytes at `source` is one JSON escapes:
    /// below 0x20, a quote or a backslash. Exact: the word tests below find whether such a byte
    /// exists (their false positives fall only on bytes after a true one), and the bytes a short
    /// string reads twice or pads with are tested as what they are. No loop, so it inlines.
    @inline(__always) static func mayNeedEscape(_ source: UnsafePointer<UInt8>, _ byteCount: Int) -> Bool {
        let from = UnsafeRawPointer(source)
        if byteCount >= 8 {
            return needsEscape(from.loadUnaligned(as: UInt64.self)) || needsEscape(from.loadUnaligned(fromByteOffset: byteCount - 8, as: UInt64.self))
        }
        let spaces: UInt64 = 0x2020_2020_2020_2020
        if byteCount >= 4 {
            // The first 4 bytes and the last 4 (overlapping), spaces (which need no escape) above.
            let head = UInt64(from.loadUnaligned(as: UInt32.self)), tail = UInt64(from.loadUnaligned(fromByteOffset: byteCount - 4, as: UInt32.self))
            return needsEscape(head | (tail << 32))
        }
        guard byteCount > 0 else { return false }
        // 1 to 3 bytes: the first, the middle and the last (some the same byte), spaces above.
        let first = UInt64(source[0]), middle = UInt64(source[byteCount >> 1]), last = UInt64(source[byteCount - 1])
        return needsEscape(first | (middle << 8) | (last << 16) | (spaces << 24))
    }

    /// Whether any byte of `word` is below 0x20, a quote (0x22) or a backslash (0x5C).
    @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below n (n ≤ 0x80) sets its high bit in (x - n·ones) & ~x; a zero byte of
        // x ^ c is a byte equal to c.
        let below = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (below | equal) & highs != 0
    }

    /// The escape of one byte `appendEscaped` does not copy: the short forms, else `\u00xx`.
    private mutating func appendEscape(_ byte: UInt8) {
        // One rendering of escapes: JSON's own.
        var escaped: [UInt8] = []
        JSON.writeString(String(decoding: [byte], as: UTF8.self), into: &escaped)
        escaped.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0.dropFirst().dropLast())) }
    }

    /// A JSON value rendered compact, byte for byte as `JSON.write(into:)` renders it.
    mutating func append(_ value: JSON) {
        switch value {
        case .null: append("null")
        case .bool(let flag): if flag { append("true") } else { append("false") }
        case .int(let number): appendDecimal(number)
        case .uint(let number): appendDecimal(number)
        case .string(let text): appendString(text)
        case .double(let number): appendPlain(JSON.format(number))
        case .array(let elements):
            append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                append(element)
            }
            append(UInt8(ascii: "]"))
        case .object(let fields):
            append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendString(field.key)
                append(UInt8(ascii: ":"))
                append(field.value)
            }
            append(UInt8(ascii: "}"))
        }
    }
}
