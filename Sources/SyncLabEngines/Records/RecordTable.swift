import SyncLabProtocol

/// A device's local records and last server versions, in one table keyed by record.
///
/// The two were two dictionaries (`records`, `serverRecords`). A fetched record reads and writes
/// both, and at 1,000 devices each lookup was a cache miss on the key (the records bench spent
/// 12% of its time on the key compare of those lookups, issue 13, fifth pass): one slot per
/// record makes the second lookup find the key already in cache. A slot with neither part is
/// removed, so the table holds no more keys than the two dictionaries did together.
///
/// Iteration order is the dictionary's: callers sort (`localKeys.sorted()`), as they did.
struct RecordTable: Sendable {
    private(set) var slots: [RecordKey: RecordSlot] = [:]

    /// The local copy of a record (nil: the app does not have it).
    subscript(local key: RecordKey) -> LocalRecord? {
        // A getter, not a `_read` coroutine, which was not inlined and yielded a copy of the
        // part (a `memmove` of the whole server version per read). `Dictionary.Values`' getter
        // may still copy the slot: the reads on the fetch path go through `serverChangeTag(at:)`
        // and `hasServer(at:)`, which read in place.
        get {
            guard let place = slots.index(forKey: key) else { return nil }
            return slots.values[place].local
        }
        _modify {
            if let place = slots.index(forKey: key) {
                yield &slots.values[place].local
                if slots.values[place].isEmpty { slots.remove(at: place) }
            } else {
                var local: LocalRecord?
                yield &local
                if let local { slots[key] = RecordSlot(local: local, server: nil) }
            }
        }
    }

    /// The last server version of a record this device knows (nil: none, or not since it was
    /// deleted).
    subscript(server key: RecordKey) -> ServerRecord? {
        get {
            guard let place = slots.index(forKey: key) else { return nil }
            return slots.values[place].server
        }
        _modify {
            if let place = slots.index(forKey: key) {
                yield &slots.values[place].server
                if slots.values[place].isEmpty { slots.remove(at: place) }
            } else {
                var server: ServerRecord?
                yield &server
                if let server { slots[key] = RecordSlot(local: nil, server: server) }
            }
        }
    }

    /// The slot's position, for reading and writing both parts with one lookup; valid until a
    /// slot is added or removed.
    func place(of key: RecordKey) -> Dictionary<RecordKey, RecordSlot>.Index? { slots.index(forKey: key) }

    /// The slot at a position from `place(of:)`. Leave it empty only to fill it again: an empty
    /// slot is removed only through the keyed subscripts and `removeLocal(forKey:)`.
    subscript(slotAt place: Dictionary<RecordKey, RecordSlot>.Index) -> RecordSlot {
        get { slots.values[place] }
        _modify { yield &slots.values[place] }
    }

    /// The change tag of the server version in the slot at `place`, read in place. Mutating only
    /// to read through `Dictionary.Values`' in-place accessor: its getter copies the whole slot
    /// (every string and dictionary of both parts retained, then released) to read one number.
    mutating func serverChangeTag(at place: Dictionary<RecordKey, RecordSlot>.Index) -> UInt64? {
        RecordTable.inPlace(&slots.values[place]) { $0.server?.changeTag }
    }

    /// Whether the slot at `place` holds a server version, read in place (see `serverChangeTag`).
    mutating func hasServer(at place: Dictionary<RecordKey, RecordSlot>.Index) -> Bool {
        RecordTable.inPlace(&slots.values[place]) { $0.server != nil }
    }

    private static func inPlace<Result>(_ slot: inout RecordSlot, _ read: (RecordSlot) -> Result) -> Result { read(slot) }

    /// Takes the local copy out of the slot at `place`, leaving nil there: the caller changes it
    /// and puts it back (`self[slotAt: place].local = …`) without its field dictionary being
    /// shared, and so copied, on the first change.
    mutating func takeLocal(at place: Dictionary<RecordKey, RecordSlot>.Index) -> LocalRecord? {
        var taken: LocalRecord?
        swap(&taken, &slots.values[place].local)
        return taken
    }

    /// Removes and returns a record's local copy (the slot goes if no server version is left).
    mutating func removeLocal(forKey key: RecordKey) -> LocalRecord? {
        guard let place = slots.index(forKey: key) else { return nil }
        let taken = takeLocal(at: place)
        if slots.values[place].isEmpty { slots.remove(at: place) }
        return taken
    }

    /// The records the device has a local copy of, in no particular order.
    var localKeys: [RecordKey] { slots.compactMap { $0.value.local == nil ? nil : $0.key } }
    /// The records the device knows a server version of, in no particular order.
    var serverKeys: [RecordKey] { slots.compactMap { $0.value.server == nil ? nil : $0.key } }

    /// The local copies as a dictionary (built: for inspection, not for the engine's own use).
    var localRecords: [RecordKey: LocalRecord] {
        get { slots.compactMapValues(\.local) }
        set { replace(\.local, with: newValue) }
    }

    /// The server versions as a dictionary (built: for inspection, not for the engine's own use).
    var serverRecords: [RecordKey: ServerRecord] {
        get { slots.compactMapValues(\.server) }
        set { replace(\.server, with: newValue) }
    }

    /// Sets one part of every slot from a dictionary (absent keys: nil), dropping empty slots.
    private mutating func replace<Part>(_ part: WritableKeyPath<RecordSlot, Part?>, with parts: [RecordKey: Part]) {
        for key in slots.keys where parts[key] == nil { slots[key]![keyPath: part] = nil }
        for (key, value) in parts { slots[key, default: RecordSlot()][keyPath: part] = value }
        slots = slots.filter { !$0.value.isEmpty }
    }
}
