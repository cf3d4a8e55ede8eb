/// A map from `Int` keys to values for the checker's hot paths: open addressing with linear
/// probing and a multiplicative (Fibonacci) hash, key and value side by side in one slot, so a
/// lookup is a multiply and usually one cache line, not a SipHash of the key and three scattered
/// reads as with `Dictionary`.
///
/// The hash has no per-process seed, so the table's order (`forEach`) depends only on the keys
/// and the order they went in: the same in every process.
struct IntMap<Value> {
    private struct Slot {
        /// `IntMap.empty` for a free slot.
        var key: Int
        var value: Value?
    }

    /// The key no entry may have: it marks a free slot.
    static var empty: Int { Int.min }

    private var slots: [Slot]
    /// 64 − log2(slot count): the hash is the top bits of key × φ·2⁶⁴.
    private var shift: UInt64
    private(set) var count = 0

    /// - Parameter capacity: entries expected; the table grows past it.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: Slot(key: IntMap.empty, value: nil), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    @inline(__always) private func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, or the free slot where it would go.
    @inline(__always) private func find(_ key: Int) -> Int {
        let mask = slots.count - 1
        var slot = home(key)
        while slots[slot].key != key && slots[slot].key != IntMap.empty { slot = (slot + 1) & mask }
        return slot
    }

    subscript(key: Int) -> Value? { slots[find(key)].value }

    /// Stores `value` under `key` and hands back what was there (nil if nothing): a lookup and an
    /// update for the price of one probe.
    @discardableResult
    mutating func exchange(_ key: Int, _ value: Value) -> Value? {
        precondition(key != IntMap.empty, "IntMap: the key \(key) marks free slots")
        let slot = find(key)
        if slots[slot].key == key {
            var old: Value? = value
            swap(&old, &slots[slot].value)
            return old
        }
        slots[slot] = Slot(key: key, value: value)
        count += 1
        if count * 2 > slots.count { grow() }
        return nil
    }

    /// Changes the value under `key` in place, inserting `initial` first if there is none.
    mutating func update(_ key: Int, default initial: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        precondition(key != IntMap.empty, "IntMap: the key \(key) marks free slots")
        var slot = find(key)
        if slots[slot].key != key {
            slots[slot] = Slot(key: key, value: initial())
            count += 1
            if count * 2 > slots.count { grow(); slot = find(key) }
        }
        // Never nil here: the slot holds `key`.
        var value = slots[slot].value.take()!
        body(&value)
        slots[slot].value = value
    }

    /// Calls `body` with every entry, in table order.
    func forEach(_ body: (Int, Value) -> Void) {
        for slot in slots where slot.key != IntMap.empty {
            if let value = slot.value { body(slot.key, value) }
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: IntMap.empty, value: nil), count: old.count * 2)
        shift -= 1
        for slot in old where slot.key != IntMap.empty { slots[find(slot.key)] = slot }
    }
}
