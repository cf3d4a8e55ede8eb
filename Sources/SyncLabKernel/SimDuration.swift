/// A span of virtual time, in integer microseconds.
///
/// Durations and instants are different types (as `TimeAmount` and `NIODeadline` are in swift-nio),
/// so an instant can never be added to an instant by mistake.
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The length in microseconds. May be negative (a clock offset or a backwards jump).
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public static func microseconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: value) }
    @inlinable public static func milliseconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: Saturating.multiply(value, 1_000)) }
    @inlinable public static func seconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: Saturating.multiply(value, 1_000_000)) }
    @inlinable public static func minutes(_ value: Int64) -> SimDuration { SimDuration(microseconds: Saturating.multiply(value, 60_000_000)) }
    public static let zero = SimDuration(microseconds: 0)

    /// The longest duration, and the latest time, a scenario file may write: 100 years
    /// (36,525 days). Far beyond any useful scenario, and small enough that sums of a few such
    /// values stay far inside 64 bits (Int64 microseconds reach about 292,000 years).
    public static let scenarioLimit = SimDuration(microseconds: 36_525 * 86_400_000_000)

    @inlinable public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.microseconds < rhs.microseconds }
    // Saturating: a value a file can carry never traps; a sum past the 64-bit range sticks at
    // its end, far beyond any scenario's duration, so it reads as "never".
    @inlinable public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration { SimDuration(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds)) }
    @inlinable public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration { SimDuration(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds)) }
    @inlinable public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration { SimDuration(microseconds: Saturating.multiply(lhs.microseconds, rhs)) }

    /// `"1.5s"`-style rendering for messages: the largest unit that keeps the value exact.
    public var description: String {
        let us = microseconds
        let sign = us < 0 ? "-" : ""
        let magnitude = us.magnitude
        for (unit, size) in [("h", UInt64(3_600_000_000)), ("m", 60_000_000), ("s", 1_000_000)] where magnitude >= size && magnitude % size == 0 {
            return "\(sign)\(magnitude / size)\(unit)"
        }
        if magnitude < 1_000_000 && magnitude % 1_000 == 0 { return "\(sign)\(magnitude / 1_000)ms" }
        if magnitude >= 1_000_000 {
            let whole = magnitude / 1_000_000, frac = magnitude % 1_000_000
            var fracText = String(frac)
            fracText = String(repeating: "0", count: 6 - fracText.count) + fracText
            while fracText.hasSuffix("0") { fracText.removeLast() }
            return "\(sign)\(whole).\(fracText)s"
        }
        return "\(sign)\(magnitude)us"
    }
}
