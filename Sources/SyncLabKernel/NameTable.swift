/// A table from names (short strings: KVS keys) to values: open addressing (linear probing,
/// FNV-1a hashes) with each name and value stored in its own slot.
///
/// Why not `[String: Value]`: a KVS bench of 1,000 devices looks a fetched key up in a different
/// device's store at nearly every event, and that lookup is a cache miss: the run's speed is
/// set by how many cache lines of a device's store a lookup touches, not by the instructions. A
/// `Dictionary` keeps its keys and its values in two arrays (a miss in each) and hashes with a
/// per-process seeded SipHash. Here a slot holds the name's hash, the name and the value
/// together, so a lookup that finds its name in its home slot (most do: see the load below)
/// touches one place of one array. (Session 8's version kept the entries dense with an
/// index of hashes beside them: half the memory, but two misses per lookup, one in the index
/// and one in the entry; the lookup was 22% of the KVS bench.)
///
/// Iteration runs in slot order: fixed by what was added and removed in which order (FNV-1a is
/// the same in every process), but meaningless. Anything observable sorts by name.
///
/// - Complexity: lookups, insertions and removals O(1) expected; the load stays at most 7/8
/// (100 names in 128 slots: as much memory as the dense entries and index took before).
public struct NameTable<Value> {
    /// One slot: a name's hash (0: empty), the name, and its value (nil only when empty).
    @usableFromInline struct Slot {
        @usableFromInline var hash: UInt32
        @usableFromInline var name: String
        @usableFromInline var value: Value?
        @inlinable init(hash: UInt32, name: String, value: Value?) { self.hash = hash; self.name = name; self.value = value }
        @inlinable static var empty: Slot { Slot(hash: 0, name: "", value: nil) }
    }

    /// Power-of-two many slots (or none).
    @usableFromInline var slots: ContiguousArray<Slot> = []
    /// `slots.count - 1`, kept here: a lookup then reads nothing of the slots' buffer but the
    /// slots it probes (the buffer's header, with its count, is another cache line).
    @usableFromInline var mask = -1
    /// How many slots hold a name.
    @usableFromInline var storedCount = 0

    public init() {}

    /// A position of a name in the table, valid until the table next gains or loses a name.
    public struct Index: Hashable, Sendable {
        @usableFromInline let entry: Int
        @inlinable init(entry: Int) { self.entry = entry }
    }

    @inlinable public var count: Int { storedCount }
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// The name's FNV-1a hash (64-bit, folded to 31 bits), the top bit set so that no name's
    /// hash is 0 (an empty slot's): the same in every process.
    @inlinable static func hash(_ name: String) -> UInt32 {
        // Over the contiguous bytes: the generic walk of `name.utf8` was two thirds of a lookup's
        // instructions once the lookup's own miss was one.
        let full = name.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = FNV1a64.offsetBasis
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* FNV1a64.prime }
            return hash
        } ?? {
            var hash = FNV1a64.offsetBasis
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* FNV1a64.prime }
            return hash
        }()
        return UInt32(truncatingIfNeeded: full ^ (full >> 32)) | 0x8000_0000
    }

    /// The slot holding `name`, or nil.
    @inlinable func slot(of name: String, hash: UInt32) -> Int? {
        guard mask >= 0 else { return nil }
        let mask = self.mask
        return slots.withUnsafeBufferPointer { slots in
            // Within bounds by the mask; the buffer's own count is never read (see `mask`).
            let base = slots.baseAddress.unsafelyUnwrapped
            var slot = Int(hash) & mask
            while true {
                // Fields read through the slot's address: a copy of the whole slot would
                // retain its name and value.
                let stored = base[slot].hash
                if stored == 0 { return nil }
                if stored == hash && base[slot].name == name { return slot }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Where `name` is, or nil.
    @inlinable public func index(forName name: String) -> Index? {
        slot(of: name, hash: Self.hash(name)).map { Index(entry: $0) }
    }

    /// The value at a position `index(forName:)` gave, read and written in place.
    @inlinable public subscript(index: Index) -> Value {
        get { slots[index.entry].value.unsafelyUnwrapped }
        _modify { yield &slots[index.entry].value! }
    }

    /// The name at a position `index(forName:)` gave.
    @inlinable public func name(at index: Index) -> String { slots[index.entry].name }

    /// Every position that holds a name, in slot order.
    @inlinable public var indices: [Index] { slots.indices.compactMap { slots[$0].hash == 0 ? nil : Index(entry: $0) } }

    /// The value of `name`; setting nil removes it.
    @inlinable public subscript(name: String) -> Value? {
        get { index(forName: name).map { self[$0] } }
        set {
            if let newValue { updateValue(newValue, forName: name) } else { removeValue(forName: name) }
        }
    }

    /// Sets the value of `name`, adding it if new.
    @inlinable public mutating func updateValue(_ value: Value, forName name: String) {
        let hash = Self.hash(name)
        if let slot = slot(of: name, hash: hash) {
            slots[slot].value = value
            return
        }
        if (storedCount + 1) * 8 > slots.count * 7 { grow() }
        place(Slot(hash: hash, name: name, value: value))
        storedCount += 1
    }

    /// Puts a name and its value into the first free slot of its probe path.
    @inlinable mutating func place(_ entry: consuming Slot) {
        var slot = Int(entry.hash) & mask
        while slots[slot].hash != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Removes `name` (nothing if absent). The slots probed past the freed one move back so
    /// that every lookup still finds its name before an empty slot (no tombstones).
    @inlinable public mutating func removeValue(forName name: String) {
        guard let found = slot(of: name, hash: Self.hash(name)) else { return }
        storedCount -= 1
        var hole = found
        slots[hole] = .empty
        var slot = (hole + 1) & mask
        while slots[slot].hash != 0 {
            let home = Int(slots[slot].hash) & mask
            // The slot's entry may fill the hole if the hole lies on its probe path: from its
            // home slot to where it is, cyclically.
            if (hole - home) & mask < (slot - home) & mask {
                slots.swapAt(hole, slot)
                hole = slot
            }
            slot = (slot + 1) & mask
        }
    }

    @inlinable public mutating func removeAll() {
        slots = []
        mask = -1
        storedCount = 0
    }

    /// Inlinable, so specialized for each value type: generic, it moved every slot through
    /// value witnesses (~45,000 instructions a growth for a table of 100 keys).
    @inlinable mutating func grow() {
        var old = ContiguousArray(repeating: Slot.empty, count: Swift.max(8, slots.count * 2))
        swap(&old, &slots)
        mask = slots.count - 1
        // Each entry moved out and an empty slot left behind, not copied: a copy retained each
        // name and value and freeing the old slots released them again (a KVS app's per-key
        // memory grows its table five times at its first fold: a quarter of the fold's work).
        old.withUnsafeMutableBufferPointer { old in
            let base = old.baseAddress.unsafelyUnwrapped
            for slot in 0..<old.count where base[slot].hash != 0 {
                let entry = (base + slot).move()
                (base + slot).initialize(to: .empty)
                place(entry)
            }
        }
    }
}

extension NameTable: Sequence {
    /// Every name and value, in slot order (see the type's note: sort anything observable).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var slots: ContiguousArray<Slot>.Iterator
        @inlinable init(slots: ContiguousArray<Slot>) { self.slots = slots.makeIterator() }
        @inlinable public mutating func next() -> (name: String, value: Value)? {
            while let slot = slots.next() {
                if let value = slot.value { return (slot.name, value) }
            }
            return nil
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(slots: slots) }
    @inlinable public var underestimatedCount: Int { storedCount }
}

extension NameTable: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init()
        for (name, value) in elements { updateValue(value, forName: name) }
    }
}

/// Equal when they hold the same names with equal values, whatever order they were added in.
extension NameTable: Equatable where Value: Equatable {
    public static func == (lhs: NameTable, rhs: NameTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value }
    }
}

extension NameTable: Hashable where Value: Hashable {
    /// Independent of entry order, as `==` is: the entries' own hashes summed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var sum = 0
        for (name, value) in self {
            var entry = Hasher()
            entry.combine(name)
            entry.combine(value)
            sum = sum &+ entry.finalize()
        }
        hasher.combine(sum)
    }
}

extension NameTable.Slot: Sendable where Value: Sendable {}
extension NameTable: Sendable where Value: Sendable {}
extension NameTable.Iterator: Sendable where Value: Sendable {}
