import SyncLabProtocol

/// A device's local records and last server versions, in one table keyed by record.
///
/// The two were two dictionaries (`records`, `serverRecords`), then one `Dictionary` of slots
/// (issue 13, fifth pass). At 1,000 devices a fetched record's lookup is a cache miss on the
/// device's table, and a `Dictionary` keeps its keys (48 bytes) and values (the slot, ~170
/// bytes) in two arrays of its buckets: the probe missed on the key, the change-tag check on the
/// value, one after the other (14.7% and 5.5% of the records bench, issue 13, session 10). Here
/// the buckets are 8-byte words (the key's hash tag and the entry's index: 2 KB for 100 records,
/// so all devices' buckets stay in cache), and each key sits beside its slot in one dense array
/// of entries, so the one entry read brings both.
///
/// Entries are kept in insertion order (a removal moves the last entry into the hole), so the
/// order never depends on hashing; callers still sort what they show (`localKeys.sorted()`).
struct RecordTable: Sendable {
    /// A record's slot with its key.
    struct Entry: Sendable {
        var key: RecordKey
        var slot: RecordSlot
    }

    /// Where a slot is: its index in `entries`. Valid until a slot is added or removed.
    typealias Place = Int

    private(set) var entries: [Entry] = []
    /// Open addressing with linear probing, at most half full. 0 is an empty bucket; otherwise
    /// the low 32 bits are the entry's index + 1 and the high 32 bits the high half of its key's
    /// hash, so a probe reads the entry only when the tags match.
    private var buckets: [UInt64] = []
    /// `buckets.count - 1`, or 0 while there are none. Kept here, beside the array's reference:
    /// reading the count from the array's header was a cache miss of its own before the bucket's.
    private var bucketMask = 0

    private static let indexBits: UInt64 = 0xFFFF_FFFF

    /// Slots in the table.
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The local copy of a record (nil: the app does not have it).
    subscript(local key: RecordKey) -> LocalRecord? {
        get {
            guard let place = place(of: key) else { return nil }
            return entries.withUnsafeBufferPointer { $0[place].slot.local }
        }
        _modify {
            // The slot is found or made (empty) outside the accessor, and an empty slot goes
            // again after it: a part held here made the accessor's frame some 1.2 KB, which is
            // allocated on the heap at every call (100,000 mallocs over the records bench, each
            // large enough to make glibc consolidate its free lists).
            let place = placeMakingSlot(for: key)
            yield &entries[place].slot.local
            if entries[place].slot.isEmpty { remove(at: place) }
        }
    }

    /// The last server version of a record this device knows (nil: none, or not since it was
    /// deleted).
    subscript(server key: RecordKey) -> ServerRecord? {
        get {
            guard let place = place(of: key) else { return nil }
            return entries.withUnsafeBufferPointer { $0[place].slot.server }
        }
        _modify {
            // As `subscript(local:)`: a small frame, no heap allocation per call.
            let place = placeMakingSlot(for: key)
            yield &entries[place].slot.server
            if entries[place].slot.isEmpty { remove(at: place) }
        }
    }

    /// The slot's position, for reading and writing both parts with one lookup; valid until a
    /// slot is added or removed.
    func place(of key: RecordKey) -> Place? {
        let mask = bucketMask
        guard mask != 0 else { return nil }
        let hash = key.cachedHash
        let tag = RecordTable.tag(hash)
        var bucket = hash & mask
        // Through the buffers: the arrays' getters may copy the entry (its strings retained) to
        // compare one key, and check the index against the count in the array's header.
        return buckets.withUnsafeBufferPointer { buckets in
            entries.withUnsafeBufferPointer { entries in
                // The entries' count, read first though needed only to check the index: its line
                // (the array's header) is the one every write after a lookup reads to check the
                // buffer is not shared, a cold miss of its own after the entry's (5% of the records
                // bench in that uniqueness check). Its address needs nothing loaded, so read here
                // it misses beside the bucket word instead (issue 13, session 11).
                let count = entries.count
                while true {
                    let word = buckets[bucket]
                    if word == 0 { return nil }
                    if word & ~RecordTable.indexBits == tag {
                        let index = Int(word & RecordTable.indexBits) - 1
                        if index < count && entries[index].key == key { return index }
                    }
                    bucket = (bucket + 1) & mask
                }
            }
        }
    }

    /// The slot at a position from `place(of:)`. Leave it empty only to fill it again: an empty
    /// slot is removed only through the keyed subscripts and `removeLocal(forKey:)`.
    subscript(slotAt place: Place) -> RecordSlot {
        get { entries.withUnsafeBufferPointer { $0[place].slot } }
        _modify { yield &entries[place].slot }
    }

    /// The change tag of the server version in the slot at `place`, read in place (a copy of the
    /// slot retains every string and dictionary of both parts to read one number).
    func serverChangeTag(at place: Place) -> UInt64? {
        entries.withUnsafeBufferPointer { $0[place].slot.server?.changeTag }
    }

    /// Whether the slot at `place` holds a server version, read in place (see `serverChangeTag`).
    func hasServer(at place: Place) -> Bool {
        entries.withUnsafeBufferPointer { $0[place].slot.server != nil }
    }

    /// Takes the local copy out of the slot at `place`, leaving nil there: the caller changes it
    /// and puts it back (`self[slotAt: place].local = …`) without its field dictionary being
    /// shared, and so copied, on the first change.
    mutating func takeLocal(at place: Place) -> LocalRecord? {
        var taken: LocalRecord?
        swap(&taken, &entries[place].slot.local)
        return taken
    }

    /// Removes and returns a record's local copy (the slot goes if no server version is left).
    mutating func removeLocal(forKey key: RecordKey) -> LocalRecord? {
        guard let place = place(of: key) else { return nil }
        let taken = takeLocal(at: place)
        if entries[place].slot.isEmpty { remove(at: place) }
        return taken
    }

    /// The records the device has a local copy of, in no particular order.
    var localKeys: [RecordKey] { entries.compactMap { $0.slot.local == nil ? nil : $0.key } }
    /// The records the device knows a server version of, in no particular order.
    var serverKeys: [RecordKey] { entries.compactMap { $0.slot.server == nil ? nil : $0.key } }

    /// The local copies as a dictionary (built: for inspection, not for the engine's own use).
    var localRecords: [RecordKey: LocalRecord] {
        get { Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry.slot.local.map { (entry.key, $0) } }) }
        set { replace(\.local, with: newValue) }
    }

    /// The server versions as a dictionary (built: for inspection, not for the engine's own use).
    var serverRecords: [RecordKey: ServerRecord] {
        get { Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry.slot.server.map { (entry.key, $0) } }) }
        set { replace(\.server, with: newValue) }
    }

    /// Sets one part of every slot from a dictionary (absent keys: nil), dropping empty slots.
    /// New slots are added in key order, so the entries' order never follows the dictionary's.
    private mutating func replace<Part>(_ part: WritableKeyPath<RecordSlot, Part?>, with parts: [RecordKey: Part]) {
        for index in entries.indices where parts[entries[index].key] == nil { entries[index].slot[keyPath: part] = nil }
        for key in parts.keys.sorted() {
            if let place = place(of: key) {
                entries[place].slot[keyPath: part] = parts[key]
            } else {
                var slot = RecordSlot()
                slot[keyPath: part] = parts[key]
                insert(key, slot)
            }
        }
        entries.removeAll { $0.slot.isEmpty }
        rebuildBuckets(count: buckets.count)
    }

    // MARK: - Buckets

    /// The high half of a hash, in the high half of a bucket word (the low half picks the bucket).
    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash)) & ~indexBits }

    /// The place of the key's slot, an empty one added at the end if the table has none.
    @inline(never)
    private mutating func placeMakingSlot(for key: RecordKey) -> Place {
        if let place = place(of: key) { return place }
        insert(key, RecordSlot())
        return entries.count - 1
    }

    /// Adds a slot for a key the table does not hold.
    private mutating func insert(_ key: RecordKey, _ slot: RecordSlot) {
        if (entries.count + 1) * 2 > buckets.count { rebuildBuckets(count: max(8, buckets.count * 2)) }
        entries.append(Entry(key: key, slot: slot))
        fill(hash: key.cachedHash, index: entries.count - 1)
    }

    /// Puts an entry's index in the first empty bucket from its hash's.
    private mutating func fill(hash: Int, index: Int) {
        let mask = buckets.count - 1
        var bucket = hash & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = RecordTable.tag(hash) | UInt64(index + 1)
    }

    /// The bucket holding the entry at `index`.
    private func bucket(holding index: Int) -> Int {
        let mask = buckets.count - 1
        var bucket = entryHash(index) & mask
        while buckets[bucket] & RecordTable.indexBits != UInt64(index + 1) { bucket = (bucket + 1) & mask }
        return bucket
    }

    private func entryHash(_ index: Int) -> Int { entries.withUnsafeBufferPointer { $0[index].key.cachedHash } }

    /// Removes the slot at `place`: its bucket is emptied (the probe runs after it shifted back,
    /// so no lookup stops early), and the last entry moves into its place.
    @inline(never)
    private mutating func remove(at place: Place) {
        let mask = buckets.count - 1
        var hole = bucket(holding: place)
        var next = (hole + 1) & mask
        while buckets[next] != 0 {
            let home = entryHash(Int(buckets[next] & RecordTable.indexBits) - 1) & mask
            // The entry may fill the hole if the hole lies on its probe path (home ... next).
            if (next &- home) & mask >= (next &- hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
        let last = entries.count - 1
        if place != last {
            let moved = bucket(holding: last)
            buckets[moved] = (buckets[moved] & ~RecordTable.indexBits) | UInt64(place + 1)
            entries.swapAt(place, last)
        }
        entries.removeLast()
    }

    /// Buckets made anew for every entry (`count` a power of two, at least twice the entries).
    private mutating func rebuildBuckets(count: Int) {
        var size = max(count, 8)
        while size < entries.count * 2 { size *= 2 }
        buckets = Array(repeating: 0, count: size)
        bucketMask = size - 1
        for index in entries.indices { fill(hash: entryHash(index), index: index) }
    }
}
