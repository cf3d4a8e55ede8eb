import SyncLabKernel
import SyncLabProtocol

extension KVSEngine {
    /// A device's local store: key → `LocalValue`, tombstones included.
    ///
    /// Keys the cloud has numbered (`KVSChange.number`) keep their value in `numbered`, a dense
    /// array indexed by that number: a fetched change finds its key there with one load of 8
    /// bytes, no hashing, no name compared. The KVS bench applies every write on every one of
    /// 1,000 devices, and that lookup was a cache miss each time: as a `NameTable` slot (hash,
    /// name, value inline: 64 bytes) a device's 100 keys took 8 KB, the 1,000 stores 8 MB, far
    /// beyond the L2 cache; here they take 800 bytes a device.
    /// Keys not numbered yet (written here, never fetched) keep their value beside their name in
    /// `places`, which also maps every numbered key's name to its number (for lookups by name:
    /// app calls, rollbacks). A key is numbered the first time a change of it with its number
    /// is looked up here.
    ///
    /// The numbers are those of the account the store belongs to (`Durable.lastAccount`); an
    /// account switch empties the store. Iteration runs in `places`' slot order: meaningless,
    /// anything observable sorts by name.
    public struct LocalStore: Sendable {
        /// Where a key's value is.
        enum Place: Sendable {
            /// In `numbered`, at the cloud's number of the key (nil there: removed from the store).
            case numbered(UInt32)
            /// Here: the key has no number yet.
            case loose(LocalValue)
        }

        /// Every key's place, by name.
        var places: NameTable<Place> = [:]
        /// Values of numbered keys by number; nil: that number is not in the store.
        var numbered: ContiguousArray<LocalValue?> = []
        /// Keys with a value (tombstones included).
        var storedCount = 0

        public init() {}

        public var count: Int { storedCount }
        public var isEmpty: Bool { storedCount == 0 }

        /// The value of `key`; setting nil removes it from the store.
        public subscript(key: String) -> LocalValue? {
            get {
                switch places[key] {
                case .numbered(let number)?: return numbered[Int(number)]
                case .loose(let value)?: return value
                case nil: return nil
                }
            }
            set {
                switch places[key] {
                case .numbered(let number)?:
                    let had = numbered[Int(number)] != nil
                    storedCount += (newValue != nil ? 1 : 0) - (had ? 1 : 0)
                    numbered[Int(number)] = newValue
                case .loose?:
                    if let newValue { places[key] = .loose(newValue) } else { places[key] = nil; storedCount -= 1 }
                case nil:
                    guard let newValue else { return }
                    places[key] = .loose(newValue)
                    storedCount += 1
                }
            }
        }

        /// The value of the key `change` is about: by its number when the store knows it (the
        /// fetch path), else by name, numbering the key then if the change carries its number.
        mutating func value(for change: KVSChange) -> LocalValue? {
            if let number = change.number, Int(number) < numbered.count, let value = numbered[Int(number)] {
                assert(value.state.key.isEmpty || value.state.key == change.key, "kvs: key number \(number) is \"\(value.state.key)\", not \"\(change.key)\"")
                return value
            }
            let value = self[change.key]
            if let number = change.number { assignNumber(number, to: change.key) }
            return value
        }

        /// Sets the value of the key `change` is about (after `value(for:)` numbered it).
        mutating func set(_ value: LocalValue, for change: KVSChange) {
            if let number = change.number, Int(number) < numbered.count, numbered[Int(number)] != nil {
                numbered[Int(number)] = value
                return
            }
            self[change.key] = value
        }

        /// Moves `key` (present or not) to `number`, unless it has a number already.
        private mutating func assignNumber(_ number: UInt32, to key: String) {
            let value: LocalValue?
            switch places[key] {
            case .numbered?: return
            case .loose(let loose)?: value = loose
            case nil: value = nil
            }
            places[key] = .numbered(number)
            if Int(number) >= numbered.count {
                numbered.append(contentsOf: repeatElement(nil, count: Int(number) + 1 - numbered.count))
            }
            numbered[Int(number)] = value
        }

        public mutating func removeAll() {
            places.removeAll()
            numbered = []
            storedCount = 0
        }
    }
}

extension KVSEngine.LocalStore: Sequence {
    /// Every key in the store and its value, in `places`' slot order (see the type's note).
    public struct Iterator: IteratorProtocol {
        var places: NameTable<Place>.Iterator
        let numbered: ContiguousArray<KVSEngine.LocalValue?>

        public mutating func next() -> (name: String, value: KVSEngine.LocalValue)? {
            while let (name, place) = places.next() {
                switch place {
                case .numbered(let number): if let value = numbered[Int(number)] { return (name, value) }
                case .loose(let value): return (name, value)
                }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(places: places.makeIterator(), numbered: numbered) }
    public var underestimatedCount: Int { storedCount }
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
