import SyncLabKernel

/// A device's local clock (SPEC §3.2): `local = true + offset + driftPpm × true / 1e6`.
///
/// `clock.set` replaces the offset; `clock.jump` adds to it (backwards too). Drift keeps running
/// from t=0, so a drifting clock's error grows with true time.
public struct DeviceClock: Hashable, Sendable {
    /// Offset from true time, in microseconds (positive: the clock runs ahead).
    public var offset: SimDuration
    /// Drift in parts per million (positive: the clock runs fast).
    public var driftPpm: Double

    public init(offset: SimDuration, driftPpm: Double) { self.offset = offset; self.driftPpm = driftPpm }

    /// The clock's reading at true time `now`.
    @inlinable public func reading(at now: SimInstant) -> LocalInstant {
        // Saturating, like all time arithmetic: repeated clock jumps or a wild drift pin the
        // clock at the end of the 64-bit range rather than wrap or trap.
        var micros = Saturating.add(now.microseconds, offset.microseconds)
        if driftPpm != 0 {
            let drift = (driftPpm * Double(now.microseconds) / 1e6).rounded()
            micros = Saturating.add(micros, drift.isNaN ? 0 : Int64(max(min(drift, 0x1p62), -0x1p62)))
        }
        return LocalInstant(microseconds: micros)
    }

    /// How far the clock is from true time at `now` (offset plus accumulated drift).
    public func error(at now: SimInstant) -> SimDuration { reading(at: now) - LocalInstant(microseconds: now.microseconds) }
}
