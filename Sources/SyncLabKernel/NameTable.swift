/// A table from names (short strings: KVS keys) to values: the entries in one dense array, and
/// an open-addressed index over them (linear probing, FNV-1a hashes).
///
/// Why not `[String: Value]`: a KVS bench of 1,000 devices looks a fetched key up in a different
/// device's store at nearly every event, and that lookup is a cache miss: the run's speed is
/// set by how much memory every device's store spans, not by the instructions. A `Dictionary`
/// keeps its keys and its values in two arrays sized for its capacity (256 of each for 100
/// keys, some 16 KB) and hashes with a per-process seeded SipHash. Here the entries are packed
/// (100 keys: 100 entries, 5.6 KB for the KVS engine's values) and the index holds 8 bytes per
/// slot (the name's hash beside the entry's place, so a probe compares hashes without touching
/// an entry): about half the memory, so more of it stays in the cache between two fetches of
/// one key.
///
/// Iteration runs in entry order: fixed by what was added and removed in which order (FNV-1a is
/// the same in every process), but meaningless. Anything observable sorts by name.
///
/// - Complexity: lookups, insertions and removals O(1) expected; the index's load stays at most 1/2.
public struct NameTable<Value> {
    /// One name and its value.
    @usableFromInline struct Entry {
        @usableFromInline var name: String
        @usableFromInline var value: Value
        @inlinable init(name: String, value: Value) { self.name = name; self.value = value }
    }

    /// The entries, densely, in no meaningful order.
    @usableFromInline var entries: ContiguousArray<Entry> = []
    /// Power-of-two many slots (or none): 0 for an empty slot, else the name's hash in the high
    /// 32 bits and its entry's place + 1 in the low 32.
    @usableFromInline var slots: ContiguousArray<UInt64> = []
    /// `slots.count - 1`, kept here: a lookup then reads nothing of the index's buffer but the
    /// slots it probes (the buffer's header, with its count, is another cache line).
    @usableFromInline var mask = -1

    public init() {}

    /// A position of a name in the table, valid until the table next gains or loses a name.
    public struct Index: Hashable, Sendable {
        @usableFromInline let entry: Int
        @inlinable init(entry: Int) { self.entry = entry }
    }

    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// The name's FNV-1a hash (64-bit, folded to 32): the same in every process.
    @inlinable static func hash(_ name: String) -> UInt32 {
        var hash = FNV1a64.offsetBasis
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* FNV1a64.prime }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
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
                let packed = base[slot]
                if packed == 0 { return nil }
                if UInt32(truncatingIfNeeded: packed >> 32) == hash && entries[Int(packed & 0xffff_ffff) - 1].name == name { return slot }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Where `name` is, or nil.
    @inlinable public func index(forName name: String) -> Index? {
        slot(of: name, hash: Self.hash(name)).map { Index(entry: Int(slots[$0] & 0xffff_ffff) - 1) }
    }

    /// The value at a position `index(forName:)` gave, read and written in place.
    @inlinable public subscript(index: Index) -> Value {
        get { entries[index.entry].value }
        _modify { yield &entries[index.entry].value }
    }

    /// The name at a position `index(forName:)` gave.
    @inlinable public func name(at index: Index) -> String { entries[index.entry].name }

    /// Every position that holds a name, in entry order.
    @inlinable public var indices: [Index] { entries.indices.map { Index(entry: $0) } }

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
            entries[Int(slots[slot] & 0xffff_ffff) - 1].value = value
            return
        }
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(name: name, value: value))
        place(hash: hash, entry: entries.count - 1)
    }

    /// Puts an entry's place into the first free slot of its probe path.
    @inlinable mutating func place(hash: UInt32, entry: Int) {
        var slot = Int(hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt64(hash) << 32 | UInt64(entry + 1)
    }

    /// Removes `name` (nothing if absent). The last entry moves into its place (its slot is
    /// updated), and the slots probed past the freed one move back so that every lookup still
    /// finds its name before an empty slot (no tombstones).
    @inlinable public mutating func removeValue(forName name: String) {
        guard let found = slot(of: name, hash: Self.hash(name)) else { return }
        let entry = Int(slots[found] & 0xffff_ffff) - 1
        let last = entries.count - 1
        if entry != last {
            let lastHash = Self.hash(entries[last].name)
            let lastSlot = slot(of: entries[last].name, hash: lastHash).unsafelyUnwrapped
            slots[lastSlot] = UInt64(lastHash) << 32 | UInt64(entry + 1)
            entries.swapAt(entry, last)
        }
        entries.removeLast()
        var hole = found
        slots[hole] = 0
        var slot = (hole + 1) & mask
        while slots[slot] != 0 {
            let home = Int(slots[slot] >> 32) & mask
            // The slot's entry may fill the hole if the hole lies on its probe path: from its
            // home slot to where it is, cyclically.
            if (hole - home) & mask < (slot - home) & mask {
                slots[hole] = slots[slot]
                slots[slot] = 0
                hole = slot
            }
            slot = (slot + 1) & mask
        }
    }

    @inlinable public mutating func removeAll() {
        entries = []
        slots = []
        mask = -1
    }

    @usableFromInline mutating func grow() {
        slots = ContiguousArray(repeating: 0, count: Swift.max(8, slots.count * 2))
        mask = slots.count - 1
        for entry in entries.indices { place(hash: Self.hash(entries[entry].name), entry: entry) }
    }
}

extension NameTable: Sequence {
    /// Every name and value, in entry order (see the type's note: sort anything observable).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var entries: ContiguousArray<Entry>.Iterator
        @inlinable init(entries: ContiguousArray<Entry>) { self.entries = entries.makeIterator() }
        @inlinable public mutating func next() -> (name: String, value: Value)? {
            entries.next().map { ($0.name, $0.value) }
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(entries: entries) }
    @inlinable public var underestimatedCount: Int { entries.count }
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

extension NameTable.Entry: Sendable where Value: Sendable {}
extension NameTable: Sendable where Value: Sendable {}
extension NameTable.Iterator: Sendable where Value: Sendable {}
