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
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Where full chunks go; nil to keep them in `kept`.
    let file: TraceFileWriter?
    /// Where full chunks go to be hashed: `file`, or without one a writer that only hashes.
    let sink: TraceFileWriter
    /// Without a file: every byte handed on so far.
    private(set) var kept: [UInt8] = []

    init(file: TraceFileWriter?, chunkBytes: Int = TraceBuffer.chunkBytes) {
        self.file = file
        sink = file ?? TraceFileWriter()
        handOnBytes = chunkBytes
        // Room for a full chunk plus the longest common line, so a chunk is handed on at a line's end.
        chunk = TraceChunk(capacity: chunkBytes + Swift.min(chunkBytes, 64 * 1024))
        base = chunk.base
        capacity = chunk.capacity
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
        if count > 0 { handOn() }
        sink.finish()
    }

    private mutating func handOn() {
        if file == nil { kept.append(contentsOf: UnsafeBufferPointer(start: base, count: count)) }
        // The writer takes the chunk itself (no copy) to hash (and write) and gives one back to go on with.
        chunk = sink.write(chunk, count: count)
        base = chunk.base
        capacity = chunk.capacity
        count = 0
    }

    private mutating func replaceChunk(capacity newCapacity: Int) {
        chunk = chunk.copy(count: count, capacity: newCapacity)
        base = chunk.base
        capacity = chunk.capacity
    }

    /// Makes room for `byteCount` more bytes.
    @inline(__always) private mutating func reserve(_ byteCount: Int) {
        if count + byteCount > capacity { makeRoom(byteCount) }
    }

    private mutating func makeRoom(_ byteCount: Int) {
        handOn()
        if byteCount > capacity { replaceChunk(capacity: byteCount) }
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
        count += bytes.count
    }

    /// A literal, as it is (keys, punctuation: nothing to escape).
    @inline(__always) mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text known to need no escaping (identifiers, enum raw values), without quotes.
    mutating func appendPlain(_ text: String) {
        var text = text // `withUTF8` needs it mutable; a native string is not copied
        text.withUTF8 { append($0) }
    }

    /// The decimal digits of `value`, as `String(value)` spells them.
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// The decimal digits of `value`, written backwards into a small stack buffer then copied.
    mutating func appendDecimal(_ value: UInt64) {
        reserve(20)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        var magnitude = value
        let used = withUnsafeMutableBytes(of: &digits) { raw -> Int in
            var position = 24
            repeat {
                position -= 1
                raw[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            (base + count).update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + position, count: 24 - position)
            return 24 - position
        }
        count += used
    }

    /// A JSON string: quoted, escaped as `JSON.writeString` escapes (RFC 8259: quotes,
    /// backslash, control characters; other text stays UTF-8). The runs between escapes (almost
    /// always the whole string) are copied whole.
    mutating func appendString(_ value: String) {
        append(UInt8(ascii: "\""))
        appendEscaped(value)
        append(UInt8(ascii: "\""))
    }

    /// `value` escaped as inside a JSON string, without the quotes.
    mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(byte)
                run = index + 1
            }
            append(UnsafeBufferPointer(rebasing: utf8[run...]))
        }
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
