/// What a records app shows its user (`RecordsApp.userSees`): its records by id, a dictionary
/// that remembers which ids it changed, so the platform reads only those after each call into
/// the app. Keep one as (part of) your local database and change it in place, as you would a
/// `[SyncRecord.ID: SyncRecord]`.
///
/// A store the platform did not read last (a new one, one made from a dictionary, or a copy
/// changed while another copy was held) is read whole once: correct, at O(records) for that step.
public struct SyncRecordStore: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The records and the log of ids changed, shared between copies until one changes.
    final class Storage: @unchecked Sendable {
        // Safe to share: a storage is changed only through a store that holds the only reference
        // (`isKnownUniquelyReferenced`); every other access reads.
        //
        // `@exclusivity(unchecked)`: a class's stored properties are checked at run time on every
        // access (the storing of every fetched record on every device, and the platform's reading
        // of it), and no access to them can overlap another: each method touches one at a time
        // and calls no other code meanwhile (`removeAll(where:)` runs the app's closure on a
        // sorted copy, before any change).
        @exclusivity(unchecked) var records: [SyncRecord.ID: SyncRecord]
        /// Ids changed, oldest first; `logStart` is the position of the first in the whole log.
        @exclusivity(unchecked) var log: [SyncRecord.ID] = []
        @exclusivity(unchecked) var logStart = 0
        /// The position after the last id logged (`logStart + log.count`), kept here: a reading
        /// that finds nothing new then does not touch the log's buffer.
        @exclusivity(unchecked) private(set) var logEnd = 0

        init(_ records: [SyncRecord.ID: SyncRecord]) { self.records = records }

        func note(_ id: SyncRecord.ID) {
            log.append(id)
            logEnd += 1
            // Bounded: the oldest entries go once the log holds twice what the platform reads
            // at most between two calls; a reader that fell further behind reads the whole store.
            let kept = Swift.max(records.count, 64)
            if log.count > 2 * kept {
                let dropped = log.count - kept
                log.removeFirst(dropped)
                logStart += dropped
            }
        }
    }

    /// Where a reader stopped: the storage it read and the log position after what it read.
    ///
    /// The storage is known by its identity, held `unowned`: holding it strongly would make the
    /// app's next change copy every record, and a `weak` reference gives the storage a side table,
    /// which makes every retain and release of it (each reading of the store) take the slow path.
    /// An unowned reference keeps the storage's memory (not its records) until the cursor goes,
    /// so no other storage can take its address while the identity is compared; it is never read.
    struct Cursor: Sendable {
        private unowned let storage: Storage
        private let identity: ObjectIdentifier
        var position: Int

        init(storage: Storage, position: Int) {
            self.storage = storage
            identity = ObjectIdentifier(storage)
            self.position = position
        }

        /// Whether `storage` is the storage this cursor read.
        func read(_ storage: Storage) -> Bool { identity == ObjectIdentifier(storage) }
    }

    private(set) var storage: Storage

    /// An empty store.
    public init() { storage = Storage([:]) }

    /// A store holding `records`.
    public init(_ records: [SyncRecord.ID: SyncRecord]) { storage = Storage(records) }

    /// `[:]` or `[id: record, …]`; a repeated id keeps the last record.
    public init(dictionaryLiteral elements: (SyncRecord.ID, SyncRecord)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    /// The record with id `id`, nil when the app shows none; setting nil removes it.
    public subscript(id: SyncRecord.ID) -> SyncRecord? {
        get { storage.records[id] }
        set {
            makeUnique()
            storage.records[id] = newValue
            storage.note(id)
        }
    }

    /// Removes the record with id `id` and returns it (nil when there was none).
    @discardableResult
    public mutating func removeValue(forKey id: SyncRecord.ID) -> SyncRecord? {
        guard storage.records[id] != nil else { return nil }
        makeUnique()
        storage.note(id)
        return storage.records.removeValue(forKey: id)
    }

    /// Removes every record that satisfies `shouldBeRemoved` (a zone's, an account's).
    public mutating func removeAll(where shouldBeRemoved: (SyncRecord) throws -> Bool) rethrows {
        // In id order, not the dictionary's: the closure is the app's code, and the change log
        // it fills is read by the platform; neither may depend on hashing order.
        var doomed: [SyncRecord.ID] = []
        for (id, record) in storage.records.sorted(by: { $0.key < $1.key }) where try shouldBeRemoved(record) { doomed.append(id) }
        guard !doomed.isEmpty else { return }
        makeUnique()
        for id in doomed {
            storage.records[id] = nil
            storage.note(id)
        }
    }

    /// The records by id.
    public var records: [SyncRecord.ID: SyncRecord] { storage.records }
    /// The ids of the records.
    public var keys: Dictionary<SyncRecord.ID, SyncRecord>.Keys { storage.records.keys }
    /// The records.
    public var values: Dictionary<SyncRecord.ID, SyncRecord>.Values { storage.records.values }
    /// How many records the store holds.
    public var count: Int { storage.records.count }
    /// True when the store holds no record.
    public var isEmpty: Bool { storage.records.isEmpty }

    /// The records with their ids, in no particular order.
    public func makeIterator() -> Dictionary<SyncRecord.ID, SyncRecord>.Iterator { storage.records.makeIterator() }

    /// Same records (the log of changes is not part of the value).
    public static func == (lhs: SyncRecordStore, rhs: SyncRecordStore) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.records == rhs.storage.records
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage(storage.records)
            storage = copy
        }
    }

    /// The ids changed since `cursor` (each once, possibly unchanged in the end), and moves it
    /// here; nil when they cannot be told (no cursor, another storage, a log trimmed past it):
    /// read the whole store then.
    /// - Complexity: O(ids logged since `cursor`).
    func changes(since cursor: inout Cursor?) -> [SyncRecord.ID]? {
        var ids: [SyncRecord.ID] = []
        return forEachChange(since: &cursor) { ids.append($0) } ? ids : nil
    }

    /// Calls `body` with each id changed since `cursor` (each once, in the order first logged,
    /// possibly unchanged in the end), and moves it here; false, calling nothing, when they
    /// cannot be told (no cursor, another storage, a log trimmed past it): read the whole store
    /// then. (`changes(since:)` without the list: the platform reads after every call into the
    /// app, and most readings that find a change made and freed a list for it.)
    /// - Complexity: O(ids logged since `cursor`).
    func forEachChange(since cursor: inout Cursor?, _ body: (SyncRecord.ID) -> Void) -> Bool {
        guard cursor?.read(storage) == true, let position = cursor?.position else {
            cursor = Cursor(storage: storage, position: storage.logEnd)
            return false
        }
        // Same storage: only the position moves.
        cursor?.position = storage.logEnd
        guard position != storage.logEnd else { return true }
        guard position >= storage.logStart else { return false }
        let logged = storage.log[(position - storage.logStart)...]
        if logged.count <= 16 {
            // A call changes a few records: a scan of those before is cheaper than hashing them.
            for index in logged.indices where !logged[..<index].contains(logged[index]) { body(logged[index]) }
        } else {
            var seen: Set<SyncRecord.ID> = []
            for id in logged where seen.insert(id).inserted { body(id) }
        }
        return true
    }
}
