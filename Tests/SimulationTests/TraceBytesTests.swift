import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabSimulation

/// The trace buffer's hand-written formatting (integers, JSON string escaping, word-sized
/// copies, the literals of a transport line's start) against the plain renderings it replaces:
/// `String(value)` and `JSON.writeString`. A trace must stay byte for byte what it was.
@Suite("Trace bytes")
struct TraceBytesTests {
    /// The bytes `write` puts into a buffer kept in memory.
    static func bytes(chunkBytes: Int = TraceBuffer.chunkBytes, _ write: (inout TraceBuffer) -> Void) -> [UInt8] {
        var buffer = TraceBuffer(file: nil, chunkBytes: chunkBytes)
        buffer.beginLine()
        write(&buffer)
        buffer.endLine()
        buffer.flush()
        return buffer.kept
    }

    /// Edge values: zero, each power of ten and of two and their neighbours, the extremes.
    static let unsignedEdges: [UInt64] = {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, UInt64.max, UInt64.max - 1, UInt64(Int64.max), UInt64(Int64.max) + 1]
        var power: UInt64 = 1
        for _ in 0..<20 {
            values += [power - 1, power, power + 1]
            if power <= UInt64.max / 10 { power *= 10 } else { break }
        }
        for shift in 0..<64 { let two = UInt64(1) << UInt64(shift); values += [two - 1, two, two &+ 1] }
        return values
    }()

    @Test("unsigned integers are spelled as String(value) spells them, at every digit count and power of two")
    func unsignedDecimals() {
        var generator = SystemRandomNumberGenerator()
        let values = Self.unsignedEdges + (0..<2000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator) }
        for value in values {
            #expect(Self.bytes { $0.appendDecimal(value) } == Array(String(value).utf8), "\(value)")
            #expect(DecimalText.digitCount(value) == String(value).count, "\(value)")
        }
    }

    @Test("signed integers are spelled as String(value) spells them: negatives, Int64.min and Int64.max")
    func signedDecimals() {
        var generator = SystemRandomNumberGenerator()
        var values: [Int64] = [0, -1, 1, -9, -10, Int64.min, Int64.min + 1, Int64.max, Int64.max - 1]
        values += Self.unsignedEdges.filter { $0 <= UInt64(Int64.max) }.flatMap { [Int64($0), -Int64($0)] }
        values += (0..<2000).map { _ in Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator) }
        for value in values {
            #expect(Self.bytes { $0.appendDecimal(value) } == Array(String(value).utf8), "\(value)")
        }
    }

    @Test("numbers written through a local cursor are the same bytes as String(value)")
    func decimalsThroughACursor() {
        var values: [Int64] = [0, -1, Int64.min, Int64.max]
        values += Self.unsignedEdges.filter { $0 <= UInt64(Int64.max) }.flatMap { [Int64($0), -Int64($0)] }
        for value in values {
            #expect(Self.bytes { buffer in buffer.write(atMost: 21) { TraceBuffer.decimal(value, to: $0) } } == Array(String(value).utf8), "\(value)")
        }
    }

    @Test("many numbers in a row, across small chunks, are the same bytes as their Strings joined")
    func decimalsAcrossChunks() {
        let values = Self.unsignedEdges
        let written = Self.bytes(chunkBytes: 16) { buffer in
            for value in values { buffer.appendDecimal(value); buffer.append(UInt8(ascii: ",")); buffer.endLine(); buffer.beginLine() }
        }
        #expect(written == Array(values.map { "\($0)," }.joined().utf8))
    }

    /// `JSON.writeString`'s rendering of `text`: the reference for every escape.
    static func reference(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSON.writeString(text, into: &bytes)
        return bytes
    }

    @Test("strings are escaped as JSON.writeString escapes them: each byte JSON escapes, at each position of strings of 0 to 40 bytes")
    func escapesAtEveryPosition() {
        let special: [UInt8] = Array(0x00..<0x20) + [UInt8(ascii: "\""), UInt8(ascii: "\\")]
        for length in 0...40 {
            let plain = String(repeating: "a", count: length)
            #expect(Self.bytes { $0.appendString(plain) } == Self.reference(plain), "length \(length)")
            for position in 0..<length {
                for byte in special {
                    var utf8 = Array(plain.utf8)
                    utf8[position] = byte
                    let text = String(decoding: utf8, as: UTF8.self)
                    #expect(Self.bytes { $0.appendString(text) } == Self.reference(text), "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }

    @Test("bytes next to the escaped ones, non-ASCII text, and DEL are copied as they are")
    func nonEscapes() {
        // 0x1F/0x20, 0x21/0x22/0x23, 0x5B/0x5C/0x5D: the neighbours of what is escaped; 0x7F is not escaped.
        let texts = ["\u{1F} !\"#[\\]", " !#[]\u{7F}", "é", "naïve café", "日本語のテキスト", "🙂🙂🙂🙂🙂", "a🙂\n\"é\\", "\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}",
                     String(repeating: "é", count: 8), String(repeating: "x\u{80}", count: 3), "d523", "cloud", "kvs", "initialSyncChange", "device change timestamp",
                     String(repeating: "long text with no escapes ", count: 20), String(repeating: "tab\tquote\"", count: 10)]
        for text in texts {
            #expect(Self.bytes { $0.appendString(text) } == Self.reference(text), "\(text)")
            #expect(Self.bytes { $0.appendEscaped(text) } == Array(Self.reference(text).dropFirst().dropLast()), "\(text)")
        }
    }

    @Test("the word test for bytes to escape finds one exactly when there is one, for every byte value at every place")
    func wordTest() {
        for byte in 0...255 {
            let escaped = byte < 0x20 || byte == 0x22 || byte == 0x5C
            for place in 0..<8 {
                // Around the byte: spaces, and bytes that are not escaped but are close to ones that are.
                for filler: UInt8 in [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF] {
                    var word = UInt64(filler) &* 0x0101_0101_0101_0101
                    word = (word & ~(0xFF << UInt64(place * 8))) | (UInt64(byte) << UInt64(place * 8))
                    #expect(TraceBuffer.needsEscape(word) == escaped, "byte \(byte) at \(place) among \(filler)")
                }
            }
        }
    }

    @Test("plain text of every length from 0 to 100 is copied whole (the word-sized copies)")
    func copiesOfEveryLength() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for length in 0...100 {
            let text = String(decoding: (0..<length).map { alphabet[$0 % alphabet.count] }, as: UTF8.self)
            #expect(Self.bytes { $0.appendPlain(text) } == Array(text.utf8), "length \(length)")
            #expect(Self.bytes { $0.appendString(text) } == Self.reference(text), "length \(length)")
        }
    }

    @Test("the literals a transport line starts with spell every event kind's and store's raw value")
    func lineLiterals() {
        for kind in TraceEventKind.allCases {
            #expect(kind.eventAndDeviceKey.description == #","ev":"\#(kind.rawValue)","device":"#)
            // TraceRecorder.begin reserves 36 bytes for it and the quote after it.
            #expect(kind.eventAndDeviceKey.utf8CodeUnitCount + 1 <= 36, "\(kind)")
        }
        for store in Store.allCases {
            #expect(store.storeField.description == #"","store":"\#(store.rawValue)""#)
            #expect(store.storeField.utf8CodeUnitCount <= 22, "\(store)") // as TraceRecorder.begin reserves
        }
    }
}
