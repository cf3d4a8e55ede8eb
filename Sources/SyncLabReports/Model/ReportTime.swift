/// Human renderings of true times and durations (integer microseconds) for reports.
///
/// Stable and locale-free: the same number always gives the same text (reports are compared
/// byte for byte in CI).
public enum ReportTime {
    /// `0s`, `250ms`, `30.08s`, `1m 10.5s`, `2h 05m`, `2h 05m 30s`, `1d 03h`; negative values get a `-`.
    public static func format(_ microseconds: Int64) -> String {
        if microseconds < 0 { return "-" + format(0 &- microseconds) }
        let us = microseconds
        if us == 0 { return "0s" }
        if us < 1_000 { return "\(us)µs" }
        if us < 1_000_000 { return decimal(us, unit: 1_000, digits: 3) + "ms" }
        if us < 60_000_000 { return decimal(us, unit: 1_000_000, digits: 3) + "s" }
        let milliseconds = (us + 500) / 1_000
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
        if microseconds < 0 { return "-" + short(0 &- microseconds) }
        if microseconds < 1_000 { return "\(microseconds)µs" }
        if microseconds < 1_000_000 { return "\((microseconds + 500) / 1_000)ms" }
        if microseconds < 60_000_000 { return decimal(microseconds, unit: 1_000_000, digits: 1) + "s" }
        return format(microseconds)
    }

    /// A signed offset: `+0s`, `-2s`, `+5m 0s`.
    public static func signed(_ microseconds: Int64) -> String {
        microseconds < 0 ? format(microseconds) : "+" + format(microseconds)
    }

    /// `value / unit` with at most `digits` decimals, trailing zeros trimmed.
    static func decimal(_ value: Int64, unit: Int64, digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale + unit / 2) / unit
        let whole = scaled / scale
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }

    static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
