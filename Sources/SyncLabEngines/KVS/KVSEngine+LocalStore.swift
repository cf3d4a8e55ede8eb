import SyncLabKernel
import SyncLabProtocol

extension KVSEngine {
    /// A device's local store: key → `LocalValue`, tombstones included.
    ///
    /// Keys the cloud has numbered (`KVSChange.number`) keep their value in a dense array
    /// indexed by that number: a fetched change finds its key there with one load of 8 bytes, no
    /// hashing, no name compared. The KVS bench applies every write on every one of 1,000
    /// devices, and that lookup was a cache miss each time: as a `NameTable` slot (hash, name,
    /// value inline: 64 bytes) a device's 100 keys took 8 KB, the 1,000 stores 8 MB, far beyond
    /// the L2 cache; here they take 800 bytes a device.
    /// Keys not numbered yet (written here, never fetched) keep their value beside their name in
    /// `places`, which also maps every numbered key's name to its number (for lookups by name:
    /// app calls, rollbacks). A key is numbered the first time a change of it with its number
    /// is looked up here.
    ///
    /// One heap object holds it all (`Storage`: the name table and counts in its header, the
    /// numbered values after it), copied on write: a fetch's write checks one reference count
    /// and reads the counts on the line it lies on, and the copy a hosted app's snapshot takes
    /// retains that same object. (Two arrays, the names' and the numbers', made the snapshot's
    /// retain of the names' array a cache miss of its own at every notification.)
    ///
    /// The numbers are those of the account the store belongs to (`Durable.lastAccount`); an
    /// account switch empties the store. Iteration runs in `places`' slot order: meaningless,
    /// anything observable sorts by name.
    ///
    /// `@unchecked Sendable`: the storage is a class, but a value of this type is never mutated
    /// while shared (copy on write), so sharing one across threads is as safe as an array's.
    public struct LocalStore: @unchecked Sendable {
        /// Where a key's value is.
        enum Place: Sendable {
            /// Among the numbered values, at the cloud's number of the key (nil there: removed
            /// from the store).
            case numbered(UInt32)
            /// Here: the key has no number yet.
            case loose(LocalValue)
        }

        struct Header {
            /// Every key's place, by name.
            var places: NameTable<Place> = [:]
            /// How many numbered values follow the header (numbers 0..<numberedCount).
            var numberedCount = 0
            /// How many fit (kept here: `ManagedBuffer.capacity` asks the allocator).
            var capacity = 0
            /// Keys with a value (tombstones included).
            var storedCount = 0
            /// The numbers of the last keys whose value a fetched change changed: a hosted app
            /// reads the keys it is told changed by name, and these find them on the lines the
            /// fetch just wrote instead of in `places` (a cache miss per read at 1,000 devices).
            var recent = RecentNumbers()
            /// The last two of `recent`, newest first (`UInt32.max`: none).
            var recentNumbers: (UInt32, UInt32) { recent.lastTwo }
        }

        /// The header, then the values of numbered keys by number (nil: not in the store).
        final class Storage: ManagedBuffer<Header, LocalValue?> {
            static func make(capacity: Int, header: Header) -> Storage {
                let storage = unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in header }, to: Storage.self)
                storage.header.capacity = capacity
                return storage
            }

            deinit {
                _ = withUnsafeMutablePointers { header, values in values.deinitialize(count: header.pointee.numberedCount) }
            }
        }

        /// nil while the store has never held anything.
        var storage: Storage?

        public init() {}

        public var count: Int { storage?.header.storedCount ?? 0 }
        public var isEmpty: Bool { count == 0 }

        /// The names' table (empty when there is no storage).
        var places: NameTable<Place> { storage?.header.places ?? [:] }

        /// How many numbers the store has room for now (for tests: numbers 0..<numberedCount).
        var numberedCount: Int { storage?.header.numberedCount ?? 0 }

        /// The value at `number`; nil when the number is not in the store (or out of range).
        func numbered(_ number: Int) -> LocalValue? {
            guard let storage else { return nil }
            return storage.withUnsafeMutablePointers { header, values in number < header.pointee.numberedCount ? values[number] : nil }
        }

        /// The storage, unshared and with room for numbers 0..<`count` (added ones nil).
        private mutating func unique(numbers count: Int = 0) -> Storage {
            if isKnownUniquelyReferenced(&storage) {
                let storage = self.storage.unsafelyUnwrapped
                if count <= storage.header.capacity {
                    if count > storage.header.numberedCount { Self.extend(storage, to: count) }
                    return storage
                }
            }
            let old = storage
            let oldHeader = old?.header ?? Header()
            let capacity = count <= oldHeader.capacity ? oldHeader.capacity : Swift.max(count, oldHeader.capacity * 2, 8)
            let new = Storage.make(capacity: capacity, header: oldHeader)
            if let old {
                old.withUnsafeMutablePointerToElements { from in
                    new.withUnsafeMutablePointerToElements { to in to.initialize(from: from, count: oldHeader.numberedCount) }
                }
            }
            if count > oldHeader.numberedCount { Self.extend(new, to: count) }
            storage = new
            return new
        }

        /// Adds empty numbers up to `count` (within the capacity).
        private static func extend(_ storage: Storage, to count: Int) {
            storage.withUnsafeMutablePointers { header, values in
                (values + header.pointee.numberedCount).initialize(repeating: nil, count: count - header.pointee.numberedCount)
                header.pointee.numberedCount = count
            }
        }

        /// The value of `key`; setting nil removes it from the store.
        public subscript(key: String) -> LocalValue? {
            get {
                if let recent = storage?.header.recentNumbers {
                    // A recently applied key, recognised by its state's name (a state built
                    // without one never matches, and the lookup goes on by name).
                    if let value = numbered(Int(recent.0)), value.state.key == key { return value }
                    if let value = numbered(Int(recent.1)), value.state.key == key { return value }
                }
                switch storage?.header.places[key] {
                case .numbered(let number)?: return numbered(Int(number))
                case .loose(let value)?: return value
                case nil: return nil
                }
            }
            set {
                switch storage?.header.places[key] {
                case .numbered(let number)?:
                    unique().withUnsafeMutablePointers { header, values in
                        let had = values[Int(number)] != nil
                        header.pointee.storedCount += (newValue != nil ? 1 : 0) - (had ? 1 : 0)
                        values[Int(number)] = newValue
                    }
                case .loose?:
                    unique().withUnsafeMutablePointerToHeader { header in
                        if let newValue {
                            header.pointee.places[key] = .loose(newValue)
                        } else {
                            header.pointee.places[key] = nil
                            header.pointee.storedCount -= 1
                        }
                    }
                case nil:
                    guard let newValue else { return }
                    unique().withUnsafeMutablePointerToHeader { header in
                        header.pointee.places[key] = .loose(newValue)
                        header.pointee.storedCount += 1
                    }
                }
            }
        }

        /// The value of the key `change` is about: by its number when the store knows it (the
        /// fetch path), else by name, numbering the key then if the change carries its number.
        mutating func value(for change: KVSChange) -> LocalValue? {
            if let number = change.number, let value = numbered(Int(number)) {
                assert(value.state.key.isEmpty || value.state.key == change.key, "kvs: key number \(number) is \"\(value.state.key)\", not \"\(change.key)\"")
                return value
            }
            let value = self[change.key]
            if let number = change.number { assignNumber(number, to: change.key) }
            return value
        }

        /// Sets the value of the key `change` is about, numbering the key if the change names its number.
        mutating func set(_ value: LocalValue, for change: KVSChange) {
            guard let number = change.number else {
                self[change.key] = value
                return
            }
            if numbered(Int(number)) == nil {
                // Not in the store by number: a new key, or one `value(for:)` did not number.
                assignNumber(number, to: change.key)
                self[change.key] = value
                // An account's numbers name one key each, and a store holds one account's keys.
                guard case .numbered(number)? = storage?.header.places[change.key] else {
                    preconditionFailure("kvs: \"\(change.key)\" came with number \(number), the store has it under another")
                }
            }
            unique().withUnsafeMutablePointers { header, values in
                values[Int(number)] = value
                header.pointee.recent.push(number)
            }
        }

        /// What `apply(_:)` did.
        enum Applied {
            /// The key already showed this value from this write: nothing changed.
            case unchanged
            /// The key now shows the change's state; `valueChanged`: its value differs from before.
            case replaced(valueChanged: Bool)
        }

        /// Makes the key `change` is about show the change's state, unless it already shows its
        /// value from its write.
        ///
        /// The fetch path of every device: a numbered key is compared where it lies and replaced
        /// in place (its old state neither copied out nor retained: two reference-count updates
        /// a change, each an atomic instruction, fewer than `value(for:)` and `set(_:for:)`).
        mutating func apply(_ change: KVSChange) -> Applied {
            if let number = change.number {
                if let outcome = applyNumbered(Int(number), change) { return outcome }
                if let outcome = applyNew(number, change) { return outcome }
            }
            let old = value(for: change)
            if let old, old.state === change.state || (old.value == change.value && old.write == change.write) { return .unchanged }
            set(LocalValue(change.state), for: change)
            return .replaced(valueChanged: old?.value != change.value)
        }

        /// `apply(_:)` for a key the store holds at `number`; nil when it holds nothing there.
        private mutating func applyNumbered(_ number: Int, _ change: KVSChange) -> Applied? {
            // Compared in a call of its own: a reference to the storage held here until the
            // write below would make the storage look shared, and the write copy it whole.
            let outcome = compareNumbered(number, change)
            guard case .replaced(let valueChanged)? = outcome else { return outcome }
            if !isKnownUniquelyReferenced(&storage) { _ = unique() }
            // Not retained for the call: the store holds it throughout.
            Unmanaged.passUnretained(storage.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.withUnsafeMutablePointers { header, values in
                values[number] = LocalValue(change.state)
                // Only a key whose value changed, as the notification lists only those
                // (`RecentNumbers`): the bench's writers often write a value a key already shows.
                if valueChanged { header.pointee.recent.push(UInt32(number)) }
            } }
            return outcome
        }

        /// `apply(_:)` for a key the store has never held, by name or by number: numbered and set
        /// at once (what `value(for:)` and `set(_:for:)` leave, with one name lookup instead of
        /// six). Every device meets every key this way once (at 1,000 devices, 100,000 times in
        /// the KVS bench, about 5,000 instructions each before). nil when the store knows the name.
        private mutating func applyNew(_ number: UInt32, _ change: KVSChange) -> Applied? {
            guard storage?.header.places[change.key] == nil else { return nil }
            unique(numbers: Int(number) + 1).withUnsafeMutablePointers { header, values in
                header.pointee.places[change.key] = .numbered(number)
                values[Int(number)] = LocalValue(change.state)
                header.pointee.storedCount += 1
                // A removal of a key never shown is not notified (`RecentNumbers`).
                if change.value != nil { header.pointee.recent.push(number) }
            }
            // Nothing was there: the value changed unless the change is a removal.
            return .replaced(valueChanged: change.value != nil)
        }

        /// What applying `change` to the value at `number` would do; nil when there is none.
        private func compareNumbered(_ number: Int, _ change: KVSChange) -> Applied? {
            storage?.withUnsafeMutablePointers { header, values -> Applied? in
                guard number < header.pointee.numberedCount, values[number] != nil else { return nil }
                // Read where it lies, not retained: the store holds it throughout.
                unowned(unsafe) let old = values[number].unsafelyUnwrapped.state
                assert(old.key.isEmpty || old.key == change.key, "kvs: key number \(number) is \"\(old.key)\", not \"\(change.key)\"")
                if old === change.state || (old.value == change.value && old.write == change.write) { return .unchanged }
                return .replaced(valueChanged: old.value != change.value)
            }
        }

        /// Moves `key` (present or not) to `number`, unless it has a number already.
        private mutating func assignNumber(_ number: UInt32, to key: String) {
            let value: LocalValue?
            switch storage?.header.places[key] {
            case .numbered?: return
            case .loose(let loose)?: value = loose
            case nil: value = nil
            }
            unique(numbers: Int(number) + 1).withUnsafeMutablePointers { header, values in
                header.pointee.places[key] = .numbered(number)
                values[Int(number)] = value
            }
        }

        public mutating func removeAll() { storage = nil }
    }
}

extension KVSEngine.LocalStore: Sequence {
    /// Every key in the store and its value, in `places`' slot order (see the type's note).
    public struct Iterator: IteratorProtocol {
        var places: NameTable<Place>.Iterator
        let store: KVSEngine.LocalStore

        public mutating func next() -> (name: String, value: KVSEngine.LocalValue)? {
            while let (name, place) = places.next() {
                switch place {
                case .numbered(let number): if let value = store.numbered(Int(number)) { return (name, value) }
                case .loose(let value): return (name, value)
                }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(places: places.makeIterator(), store: self) }
    public var underestimatedCount: Int { count }
}

extension KVSEngine.LocalStore: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, KVSEngine.LocalValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}

/// Equal when they hold the same keys with equal values, however each key is placed.
extension KVSEngine.LocalStore: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Independent of order and placement, as `==` is: the entries' own hashes summed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(reduce(0) { sum, entry in
            var one = Hasher()
            one.combine(entry.name)
            one.combine(entry.value)
            return sum &+ one.finalize()
        })
    }
}
