import SyncLabProtocol

/// Ids for the keys a `FactLog` keeps once (the items of `visible` facts, the names and reasons
/// of notifications), given in first-seen order, so a stored fact holds an `Int32` instead of
/// strings.
///
/// Open addressing keyed by an FNV-1a hash of the key's bytes (no per-process seed; the order
/// of the slots is never read, only `keys`, which is in first-seen order). Two keys are the same
/// when their bytes are: a name spelled two ways that `String` calls equal stays two keys
/// here, so `FactLog` gives back every fact exactly as it was reported; the checker merges
/// them as it always did (its own `ItemTable` uses `ItemKey`'s `Hashable`).
struct Interner<Key: InternedKey>: Sendable {
    private struct Slot {
        var hash: UInt64
        /// -1: free.
        var id: Int32
    }

    /// The keys by id.
    private(set) var keys: [Key] = []
    /// Empty until the first key, so a history that records nothing allocates nothing here.
    private var slots: [Slot] = []
    /// The ids of keys met lately, by their `representationHash` (-1: none; empty until the
    /// first key). A key is nearly always met again as the same values (an engine's item, a
    /// fan-out reaching device after device), so the same representation finds its id without
    /// hashing its bytes: the byte hash and the probe were ~1.3% of `bench --check` at 1,000
    /// devices (issue 13, session 12). Keeping only the last key missed most of the time
    /// (session 11): fan-outs interleave.
    private var recent: [Int32] = []
    private static var recentCount: Int { 1_024 }
    /// The hash's top 10 bits index `recent`.
    private static var recentShift: UInt64 { 54 }

    /// The id of `key`, given it a new one if it has none.
    /// - Complexity: usually a hash of its representation and one compare; else one pass over
    ///   the key's bytes, then usually one slot.
    mutating func id(of key: Key) -> Int32 {
        let quick = Int(truncatingIfNeeded: key.representationHash >> Self.recentShift)
        if recent.isEmpty { recent = Array(repeating: -1, count: Self.recentCount) }
        let last = recent[quick]
        if last >= 0 && keys[Int(last)].hasSameRepresentation(as: key) { return last }
        let id = slowID(of: key)
        recent[quick] = id
        return id
    }

    /// `id(of:)` by the key's bytes.
    private mutating func slowID(of key: Key) -> Int32 {
        let hash = key.byteHash
        if slots.isEmpty { slots = Array(repeating: Slot(hash: 0, id: -1), count: 64) }
        let mask = slots.count - 1
        var index = Interner.start(hash, mask)
        while slots[index].id >= 0 {
            let slot = slots[index]
            if slot.hash == hash && keys[Int(slot.id)].hasSameBytes(as: key) { return slot.id }
            index = (index + 1) & mask
        }
        let id = Int32(keys.count)
        keys.append(key)
        slots[index] = Slot(hash: hash, id: id)
        if keys.count * 2 > slots.count { grow() }
        return id
    }

    /// The id `key` has, without giving it one (nil: never interned).
    func existingID(of key: Key) -> Int32? {
        guard !slots.isEmpty else { return nil }
        let hash = key.byteHash
        let mask = slots.count - 1
        var index = Interner.start(hash, mask)
        while slots[index].id >= 0 {
            let slot = slots[index]
            if slot.hash == hash && keys[Int(slot.id)].hasSameBytes(as: key) { return slot.id }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Twice the slots, every key placed again (its hash kept in its slot).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(hash: 0, id: -1), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.id >= 0 {
            var index = Interner.start(slot.hash, mask)
            while slots[index].id >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// The first slot to probe: the top bits of the hash times φ·2⁶⁴, masked.
    private static func start(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
