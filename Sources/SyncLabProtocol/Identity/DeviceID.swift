/// A device of the scenario, by its index in the scenario's `devices` list.
///
/// An index rather than the name so hot paths hash and compare one integer; the simulation
/// keeps the name table for output.
public struct DeviceID: Hashable, Comparable, Sendable {
    public var index: Int32
    @inlinable public init(_ index: Int32) { self.index = index }
    @inlinable public init(index: Int) { self.index = Int32(index) }
    @inlinable public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.index < rhs.index }
}
