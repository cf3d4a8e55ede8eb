/// Durations in scenario text, as the shrinker edits them: `"1500ms"`, `"2s"`, `"+5m"`, `"-30s"`.
public enum Milliseconds {
    /// (sign, milliseconds) of a duration text, or nil if it is not one the shrinker edits.
    public static func parse(_ text: String) -> (sign: String, value: Int)? {
        var body = Substring(text)
        var sign = ""
        if let first = body.first, first == "+" || first == "-" { sign = String(first); body = body.dropFirst() }
        let units: [(String, Double)] = [("ms", 1), ("us", 0.001), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (unit, scale) in units where body.hasSuffix(unit) {
            guard let number = Double(body.dropLast(unit.count)), number >= 0 else { return nil }
            return (sign, Int((number * scale).rounded()))
        }
        return nil
    }

    public static func text(_ sign: String, _ value: Int) -> String { "\(sign)\(value)ms" }
}
