import SyncLabProtocol

/// Ids for the items of a run's `visible` facts, given in first-seen order, so a stored fact
/// holds an `Int32` instead of an `ItemKey` (two strings).
///
/// Open addressing keyed by an FNV-1a hash of the key's bytes (no per-process seed; the order
/// of the slots is never read, only `keys`, which is in first-seen order). Two keys are the same
/// item when their bytes are: a name spelled two ways that `String` calls equal stays two
/// items here, so `FactLog` gives back every fact exactly as it was reported; the checker
/// merges them as it always did (its own `ItemTable` uses `ItemKey`'s `Hashable`).
struct ItemInterner: Sendable {
    private struct Slot {
        var hash: UInt64
        /// -1: free.
        var id: Int32
    }

    /// The items by id.
    private(set) var keys: [ItemKey] = []
    /// Empty until the first item, so a history that records nothing allocates nothing here.
    private var slots: [Slot] = []

    /// The id of `key`, given it a new one if it has none.
    /// - Complexity: one pass over the key's bytes, then usually one slot.
    mutating func id(of key: ItemKey) -> Int32 {
        let hash = ItemInterner.hash(key)
        if slots.isEmpty { slots = Array(repeating: Slot(hash: 0, id: -1), count: 64) }
        let mask = slots.count - 1
        var index = ItemInterner.start(hash, mask)
        while slots[index].id >= 0 {
            let slot = slots[index]
            if slot.hash == hash && ItemInterner.sameBytes(keys[Int(slot.id)], key) { return slot.id }
            index = (index + 1) & mask
        }
        let id = Int32(keys.count)
        keys.append(key)
        slots[index] = Slot(hash: hash, id: id)
        if keys.count * 2 > slots.count { grow() }
        return id
    }

    /// Twice the slots, every key placed again (its hash kept in its slot).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(hash: 0, id: -1), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.id >= 0 {
            var index = ItemInterner.start(slot.hash, mask)
            while slots[index].id >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// The first slot to probe: the top bits of the hash times φ·2⁶⁴, masked.
    private static func start(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// FNV-1a over the account, the store, and the name's and the field's bytes.
    static func hash(_ key: ItemKey) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        hash = (hash ^ UInt64(UInt32(bitPattern: key.account.index))) &* 0x0000_0100_0000_01b3
        let store: UInt64 = key.store == .kvs ? 0 : key.store == .documents ? 1 : 2
        hash = (hash ^ store) &* 0x0000_0100_0000_01b3
        hash = mix(key.name, into: hash)
        // A separator no UTF-8 byte equals, so ("ab", "") and ("a", "b") differ.
        hash = (hash ^ 0x1_00) &* 0x0000_0100_0000_01b3
        return mix(key.field, into: hash)
    }

    /// `hash` with `text`'s UTF-8 bytes mixed in, read in place (a buffer, not the view's iterator).
    private static func mix(_ text: String, into hash: UInt64) -> UInt64 {
        func mixBytes<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var hash = hash
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        return text.utf8.withContiguousStorageIfAvailable { mixBytes($0) } ?? mixBytes(text.utf8)
    }

    /// Equal account and store, and the same bytes in the name and the field.
    static func sameBytes(_ lhs: ItemKey, _ rhs: ItemKey) -> Bool {
        lhs.account == rhs.account && lhs.store == rhs.store && sameBytes(lhs.name, rhs.name) && sameBytes(lhs.field, rhs.field)
    }

    /// The same UTF-8 bytes (not `==`, which is true of two spellings of one text).
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (inPlace ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }
}
