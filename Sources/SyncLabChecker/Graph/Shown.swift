import SyncLabProtocol

/// What one device shows for one item at the current point of the scan.
struct Shown {
    /// The write behind the value (a dense write id), or -1 for none.
    var write: Int32
    var value: ItemValue

    /// What a device that never showed the item shows: nothing.
    static let missing = Shown(write: -1, value: .absent)
}

/// The key of a (write, item) pair in one integer.
@inline(__always) func writeItemKey(write: Int32, item: Int32) -> Int { Int(item) << 32 | Int(UInt32(bitPattern: write)) }
