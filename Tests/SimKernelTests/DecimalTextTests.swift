import Testing
@testable import SyncLabKernel

/// `DecimalText` spells integers for the trace (its lines and engines' log details) and must
/// spell them exactly as `String(value)` does: a trace is compared byte for byte.
@Suite("Decimal text")
struct DecimalTextTests {
    /// Zero, every power of ten and of two and their neighbours, the extremes.
    static let unsignedEdges: [UInt64] = {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, UInt64.max, UInt64.max - 1, UInt64(Int64.max), UInt64(Int64.max) + 1]
        var power: UInt64 = 1
        while true {
            values += [power - 1, power, power + 1]
            guard power <= UInt64.max / 10 else { break }
            power *= 10
        }
        for shift in 0..<64 { let two = UInt64(1) << UInt64(shift); values += [two - 1, two, two &+ 1] }
        return values
    }()

    @Test("unsigned integers: the digit count and the text are String(value)'s, at every digit count and power of two, and at random")
    func unsigned() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<5000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator) }
        for value in Self.unsignedEdges + random {
            #expect(DecimalText.digitCount(value) == String(value).count, "\(value)")
            #expect(DecimalText.string(value) == String(value), "\(value)")
        }
    }

    @Test("signed integers (Int64 and Int): negatives, Int64.min, Int64.max, and at random")
    func signed() {
        var generator = SystemRandomNumberGenerator()
        var values: [Int64] = [0, -1, 1, -9, -10, -99, -100, Int64.min, Int64.min + 1, Int64.max, Int64.max - 1]
        values += Self.unsignedEdges.filter { $0 <= UInt64(Int64.max) }.flatMap { [Int64($0), -Int64($0)] }
        values += (0..<5000).map { _ in Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator) }
        for value in values {
            #expect(DecimalText.string(value) == String(value), "\(value)")
            #expect(DecimalText.string(Int(value)) == String(Int(value)), "\(value)")
        }
    }

    @Test("a number's text is an ordinary string: equal, hashed and compared as String(value)")
    func ordinaryString() {
        let text = DecimalText.string(UInt64(12_345))
        #expect(text.utf8.count == 5)
        #expect(Set([text, "12345"]).count == 1)
        #expect(text + "!" == "12345!")
    }
}
