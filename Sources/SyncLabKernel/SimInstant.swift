/// A point in true (simulator) time: integer microseconds since the scenario's start.
public struct SimInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the scenario's start.
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    public static let start = SimInstant(microseconds: 0)

    @inlinable public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.microseconds < rhs.microseconds }
    @inlinable public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant { SimInstant(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds)) }
    @inlinable public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant { SimInstant(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds)) }
    @inlinable public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration { SimDuration(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds)) }

    public var description: String { "t=\(SimDuration(microseconds: microseconds))" }
}
