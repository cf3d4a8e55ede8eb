/// A map from `Int` keys to values for the checker's hot paths: open addressing with linear
/// probing and a multiplicative (Fibonacci) hash, so a lookup is a multiply and a probe or two,
/// not a SipHash of the key as `Dictionary` does.
///
/// Entries are kept in insertion order (`keys`, `values`), so iterating is deterministic; the
/// probe table holds only indices into them.
struct IntMap<Value> {
    /// Keys in insertion order.
    private(set) var keys: [Int] = []
    /// Values, parallel to `keys`.
    private(set) var values: [Value] = []
    /// Per slot, an index into `keys` (-1: empty).
    private var slots: [Int32]
    /// 64 − log2(slot count): the hash is the top bits of key × φ·2⁶⁴.
    private var shift: UInt64

    /// - Parameter capacity: entries expected; the table grows past it.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        keys.reserveCapacity(capacity); values.reserveCapacity(capacity)
    }

    var count: Int { keys.count }

    @inline(__always) private func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The entry index of `key`, or the empty slot where it would go.
    @inline(__always) private func find(_ key: Int) -> (entry: Int, slot: Int) {
        let mask = slots.count - 1
        var slot = home(key)
        while true {
            let entry = Int(slots[slot])
            if entry < 0 || keys[entry] == key { return (entry, slot) }
            slot = (slot + 1) & mask
        }
    }

    subscript(key: Int) -> Value? {
        let found = find(key).entry
        return found >= 0 ? values[found] : nil
    }

    /// Stores `value` under `key` and hands back what was there (nil if nothing): a lookup and an
    /// update for the price of one probe.
    @discardableResult
    mutating func exchange(_ key: Int, _ value: Value) -> Value? {
        let (entry, slot) = find(key)
        if entry >= 0 {
            var old = value
            swap(&old, &values[entry])
            return old
        }
        slots[slot] = Int32(keys.count)
        keys.append(key); values.append(value)
        if keys.count * 2 > slots.count { grow() }
        return nil
    }

    /// Changes the value under `key` in place, inserting `initial` first if there is none.
    mutating func update(_ key: Int, default initial: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        var (entry, slot) = find(key)
        if entry < 0 {
            entry = keys.count
            slots[slot] = Int32(entry)
            keys.append(key); values.append(initial())
            if keys.count * 2 > slots.count { grow() }
        }
        body(&values[entry])
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for (entry, key) in keys.enumerated() {
            var slot = home(key)
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }
}
