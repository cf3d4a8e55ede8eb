/// Integers as decimal text, spelled exactly as `String(value)` spells them, for the trace:
/// its lines hold tens of millions of numbers, and engines' log details are strings built only
/// when tracing. `String(value)` goes through the standard library's generic conversion (and a
/// heap buffer); here the digits are counted, then written two at a time from a table, right to
/// left, into the target, and a `String` of up to 15 digits is a small string (no allocation).
public enum DecimalText {
    /// How many decimal digits `value` has (1 for 0): from its bit length, ×log10(2) as
    /// 1233/4096, corrected by one comparison with the power of ten at that count.
    @inlinable @inline(__always) public static func digitCount(_ value: UInt64) -> Int {
        let bitCount = 64 - (value | 1).leadingZeroBitCount
        let estimate = (bitCount &* 1233) >> 12 // ⌊log10(2^bitCount)⌋, at most 19
        return estimate &+ (value >= powerOfTen(estimate) ? 1 : 0) &+ (value == 0 ? 1 : 0)
    }

    /// Writes the `digitCount(value)` digits of `value` at `target`.
    @inlinable @inline(__always) public static func write(_ value: UInt64, digitCount: Int, to target: UnsafeMutableRawPointer) {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let table = UnsafeRawPointer(pairs.utf8Start)
        var position = digitCount
        var magnitude = value
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100)
            magnitude /= 100
            position &-= 2
            target.storeBytes(of: table.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), toByteOffset: position, as: UInt16.self)
        }
        if magnitude >= 10 {
            target.storeBytes(of: table.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: magnitude) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            target.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude), as: UInt8.self)
        }
    }

    /// `String(value)`.
    public static func string(_ value: UInt64) -> String {
        let digits = digitCount(value)
        return String(unsafeUninitializedCapacity: digits) { buffer in
            write(value, digitCount: digits, to: UnsafeMutableRawPointer(buffer.baseAddress!))
            return digits
        }
    }

    /// `String(value)`: a minus sign for a negative value, then its magnitude's digits.
    public static func string(_ value: Int64) -> String {
        guard value < 0 else { return string(UInt64(value)) }
        let digits = digitCount(value.magnitude)
        return String(unsafeUninitializedCapacity: digits + 1) { buffer in
            buffer[0] = UInt8(ascii: "-")
            write(value.magnitude, digitCount: digits, to: UnsafeMutableRawPointer(buffer.baseAddress! + 1))
            return digits + 1
        }
    }

    /// `String(value)`.
    @inlinable public static func string(_ value: Int) -> String { string(Int64(value)) }

    /// 10^exponent for exponent 0...19 (a switch, which the compiler makes a constant table:
    /// a global array would be initialized lazily and checked at every use).
    @inlinable @inline(__always) public static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        default: return 10_000_000_000_000_000_000
        }
    }
}
