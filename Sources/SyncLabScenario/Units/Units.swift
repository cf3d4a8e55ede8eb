import Foundation
import SyncLabKernel

/// Durations, sizes and bandwidths as scenario files write them (SPEC §3.1).
///
/// Arithmetic is exact decimal (no `Double`): `"1.0000005s"` is 1 000 001 µs (halves round away
/// from zero), and values that do not fit in 64 bits give nil rather than wrapping.
public enum Units {
    /// Microseconds per duration unit.
    static let durationUnits: [(unit: String, microseconds: UInt64)] = [
        ("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000), ("d", 86_400_000_000),
    ]
    /// Bytes per size unit: binary, so `KB` and `KiB` both mean 1024 (SPEC §3.1).
    static let sizeUnits: [(unit: String, bytes: UInt64)] = [
        ("B", 1), ("KB", 1 << 10), ("KiB", 1 << 10), ("MB", 1 << 20), ("MiB", 1 << 20),
        ("GB", 1 << 30), ("GiB", 1 << 30), ("TB", 1 << 40), ("TiB", 1 << 40),
    ]
    /// Bits per second per bandwidth unit: decimal, as network speeds are quoted.
    static let bandwidthUnits: [(unit: String, bitsPerSecond: UInt64)] = [
        ("bps", 1), ("kbps", 1_000), ("Kbps", 1_000), ("Mbps", 1_000_000), ("Gbps", 1_000_000_000),
    ]

    /// `"1.5s"`, `"250ms"`, `"2m"`, `"1h"`, `"1d"`, `"10us"`; signed `"+5m"`, `"-30s"`. An integer
    /// without a unit (`"250"`) means milliseconds, as a bare JSON integer does; a decimal needs
    /// a unit. Spaces around the number and before the unit are allowed (`"2 s"`).
    /// - Returns: the duration rounded to the nearest microsecond, or nil if `text` is not one.
    public static func duration(_ text: String) -> SimDuration? {
        guard let parsed = DecimalText(text, signed: true) else { return nil }
        let scale: UInt64
        if parsed.unit.isEmpty {
            // Only a bare integer means milliseconds (SPEC §3.1): `"1.5"` is more likely a
            // forgotten unit than 1.5 ms.
            guard !text.contains(".") else { return nil }
            scale = 1_000
        } else if let match = durationUnits.first(where: { $0.unit == parsed.unit }) {
            scale = match.microseconds
        } else {
            return nil
        }
        return parsed.scaled(by: scale).map { SimDuration(microseconds: $0) }
    }

    /// Whether `text` is written like a duration (a number and a duration unit) whatever its
    /// size: tells "too large" apart from "not a duration" when `duration` gives nil.
    public static func isDurationShaped(_ text: String) -> Bool {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard number.contains(where: \.isNumber) else { return false }
        let unit = rest.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        return unit.isEmpty || durationUnits.contains { $0.unit == unit }
    }

    /// Whether `text` is written like a size (a number and a size unit, or none) or a bandwidth
    /// (`bandwidth: true`) whatever its value: tells "too large" apart from "not a size" when
    /// `size` or `bandwidth` gives nil.
    public static func isSizeShaped(_ text: String, bandwidth: Bool = false) -> Bool {
        let rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard number.contains(where: \.isNumber), number.filter({ $0 == "." }).count <= 1 else { return false }
        let unit = rest.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        return unit.isEmpty || (bandwidth ? bandwidthUnits.map(\.unit) : sizeUnits.map(\.unit)).contains(unit)
    }

    /// Whether `text` is a decimal number with no unit (`"1.5"`): not a duration (only a whole
    /// number means milliseconds), and not one too large either.
    public static func isUnitlessDecimal(_ text: String) -> Bool {
        guard let parsed = DecimalText(text, signed: true) else { return false }
        return parsed.unit.isEmpty && text.contains(".")
    }

    /// `SimDuration.scenarioLimit` in words, for messages.
    public static let scenarioLimitWords = "100 years"

    /// `"3MB"`, `"512KB"`, `"1GB"`, `"10B"`, `"2KiB"`, `"1.5MB"` (binary units); `"100"` is bytes.
    /// A number of bytes (no unit, or `B`) must be whole: `"1.5"` and `"0.5B"` are not sizes
    /// (`isFractionalBytes`), while a decimal of a larger unit rounds to the nearest byte.
    /// - Returns: bytes; nil if not a size (negative sizes and fractional bytes are nil).
    public static func size(_ text: String) -> Int64? {
        guard let parsed = DecimalText(text, signed: false) else { return nil }
        let scale: UInt64
        if parsed.unit.isEmpty || parsed.unit == "B" {
            guard !parsed.hasFraction else { return nil }
            scale = 1
        } else if let match = sizeUnits.first(where: { $0.unit == parsed.unit }) {
            scale = match.bytes
        } else {
            return nil
        }
        return parsed.scaled(by: scale)
    }

    /// Whether `text` is a number of bytes with a fraction (`"1.5"`, `"0.5B"`): not a size, since
    /// storage is counted in whole bytes; tells it apart from text that is no size at all.
    public static func isFractionalBytes(_ text: String) -> Bool {
        guard let parsed = DecimalText(text, signed: false) else { return false }
        return (parsed.unit.isEmpty || parsed.unit == "B") && parsed.hasFraction
    }

    /// `"10Mbps"`, `"256kbps"`, `"1Gbps"`, `"800bps"`: bits per second (decimal units); `"800"` is bits/s.
    public static func bandwidth(_ text: String) -> Int64? {
        guard let parsed = DecimalText(text, signed: false) else { return nil }
        let scale: UInt64
        if parsed.unit.isEmpty {
            scale = 1
        } else if let match = bandwidthUnits.first(where: { $0.unit == parsed.unit }) {
            scale = match.bitsPerSecond
        } else {
            return nil
        }
        return parsed.scaled(by: scale)
    }
}
