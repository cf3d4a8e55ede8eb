/// A reading of one clock: a device's local clock, or the cloud's.
///
/// Kept apart from `SimInstant` because a skewed clock's reading is not true time: comparing a
/// device's timestamp with true time is exactly the mistake SyncLab exists to expose.
public struct LocalInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds on this clock's own scale (true time plus the clock's offset and drift).
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public static func < (lhs: LocalInstant, rhs: LocalInstant) -> Bool { lhs.microseconds < rhs.microseconds }
    @inlinable public static func + (lhs: LocalInstant, rhs: SimDuration) -> LocalInstant { LocalInstant(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds)) }
    @inlinable public static func - (lhs: LocalInstant, rhs: LocalInstant) -> SimDuration { SimDuration(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds)) }

    public var description: String { "local=\(SimDuration(microseconds: microseconds))" }
}
