/// One value of a typed trace line (`LogFields`): a number or a literal, kept as it is and
/// spelled by the trace itself, so logging on an engine's hot path builds no `String`.
public enum LogValue: Sendable {
    /// Written as its decimal digits in quotes (`"7"`), as `String(value)` spells them.
    case number(UInt64)
    /// Written in quotes as it is (`"none"`, `"serverChange"`), escaped as any string would be.
    case literal(StaticString)

    /// The number, or `literal` when there is none (`since` before the first fetch: `"none"`).
    @inlinable public static func number(_ value: UInt64?, else literal: StaticString) -> LogValue {
        if let value { return .number(value) }
        return .literal(literal)
    }

    /// A count (never negative) as a number.
    @inlinable public static func count(_ value: Int) -> LogValue { .number(UInt64(value)) }
}
