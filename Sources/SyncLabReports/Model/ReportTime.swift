/// Human renderings of true times and durations (integer microseconds) for reports.
///
/// Stable and locale-free: the same number always gives the same text (reports are compared
/// byte for byte in CI).
public enum ReportTime {
    /// `0s`, `250ms`, `30.08s`, `1m 10.5s`, `2h 05m`, `2h 05m 30s`, `1d 03h`; negative values get a `-`.
    public static func format(_ microseconds: Int64) -> String {
        // On the magnitude, as UInt64: Int64.min has no positive Int64 (a result.json or trace
        // may carry any 64-bit time), and every step below stays inside 64 bits.
        if microseconds < 0 { return "-" + format(magnitude: microseconds.magnitude) }
        return format(magnitude: microseconds.magnitude)
    }

    private static func format(magnitude us: UInt64) -> String {
        if us == 0 { return "0s" }
        if us < 1_000 { return "\(us)µs" }
        if us < 1_000_000 { return decimal(us, unit: 1_000, digits: 3) + "ms" }
        if us < 60_000_000 { return decimal(us, unit: 1_000_000, digits: 3) + "s" }
        let milliseconds = us / 1_000 + (us % 1_000 >= 500 ? 1 : 0)
        if milliseconds < 3_600_000 { return "\(milliseconds / 60_000)m " + decimal(milliseconds % 60_000, unit: 1_000, digits: 3) + "s" }
        let seconds = us / 1_000_000
        if seconds < 86_400 {
            let rest = seconds % 60 == 0 ? "" : " " + two(seconds % 60) + "s"
            return "\(seconds / 3_600)h " + two((seconds % 3_600) / 60) + "m" + rest
        }
        return "\(seconds / 86_400)d " + two((seconds % 86_400) / 3_600) + "h"
    }

    /// A latency, rounded for a label: `850µs`, `77ms`, `1.2s`, then as `format`.
    public static func short(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        if magnitude < 1_000 { return "\(sign)\(magnitude)µs" }
        if magnitude < 1_000_000 { return "\(sign)\((magnitude + 500) / 1_000)ms" }
        if magnitude < 60_000_000 { return sign + decimal(magnitude, unit: 1_000_000, digits: 1) + "s" }
        return format(microseconds)
    }

    /// A signed offset: `+0s`, `-2s`, `+5m 0s`.
    public static func signed(_ microseconds: Int64) -> String {
        microseconds < 0 ? format(microseconds) : "+" + format(microseconds)
    }

    /// `value / unit` with at most `digits` decimals, trailing zeros trimmed. Callers keep
    /// `value` below 60 × `unit`, so the scaled value stays far inside 64 bits.
    static func decimal(_ value: UInt64, unit: UInt64, digits: Int) -> String {
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale + unit / 2) / unit
        let whole = scaled / scale
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }

    static func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
