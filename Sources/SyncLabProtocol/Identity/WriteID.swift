/// The identity of one write, carried with its value through engines and the cloud so the checker
/// can follow it (SPEC §4, §6). Engines and the cloud carry it without interpreting it.
///
/// User-level writes get `(device, sequence)` from the simulator in the order the device made them.
/// Writes an engine makes on its own (a merge, a conflict copy) are `derived`, numbered by the engine.
public struct WriteID: Hashable, Comparable, Sendable {
    public var device: DeviceID
    public var sequence: UInt32
    /// True for a write an engine made on its own (merge result, conflict copy).
    public var derived: Bool

    @inlinable public init(device: DeviceID, sequence: UInt32, derived: Bool = false) {
        self.device = device; self.sequence = sequence; self.derived = derived
    }

    @inlinable public static func < (lhs: WriteID, rhs: WriteID) -> Bool {
        if lhs.device != rhs.device { return lhs.device < rhs.device }
        if lhs.derived != rhs.derived { return !lhs.derived }
        return lhs.sequence < rhs.sequence
    }
}
