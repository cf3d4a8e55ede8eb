import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// What a device's running KVS app has seen since it launched, to build its own writes on
/// (their parents): per key, the writes it read since the last write made on the device to that
/// key (the user's change it was told of, or its own), which replaces them; the most recent 64
/// per key (a bound on an app's memory).
///
/// Most apps only read. So noting a read appends it to a log (written in order, in chunks);
/// the log is folded into the per-key memory only when the app writes (`parents()`), or when it
/// holds more notes than that memory can hold (64 per key, at least 256), which keeps it
/// bounded. Folding replays the notes in order, so the parents are exactly those of noting each
/// read as it came.
struct KVSAppReadMemory {
    /// Writes remembered per key.
    static let writesPerKey = 64
    /// The fewest notes the log holds before it is folded. Lower folds sooner: a note is folded
    /// at most once, but one a shorter run would have left in the log is folded too. At 1,024 a
    /// reading app's log (kept at its capacity, 2,048 notes, 48 KB) made `bench --hosted` 93 MB
    /// at 1,000 devices against 81 MB, and cost about 4% more CPU in cache misses, though fewer
    /// instructions (docs/HOSTING.md "What hosting costs").
    static let foldAfterNotes = 256

    /// One note: `write` read as the value of `key`, or made on the device to it (`madeHere`).
    typealias Note = KVSAppNote

    /// Folded memory: per key, its writes. A `NameTable`: its FNV-1a probe is cheaper than a
    /// `Dictionary`'s seeded SipHash at every note folded; the order of its entries is not seen
    /// (`parents()` sorts).
    private var seen = NameTable<SeenWrites>()
    /// Notes not folded yet, in the order they came, in chunks of at most `chunkNotes` (the first
    /// grown as an array grows, the others made whole): a long log grows without copying the notes
    /// it holds and leaves at most one chunk's room unused. One array, doubled, copied a reading
    /// app's 1,300 notes at 1,000 devices over seven growths and held room for 2,112 (50 KB:
    /// docs/HOSTING.md "What hosting costs").
    private var log: [[Note]] = []
    /// How many notes `log` holds.
    private var logCount = 0
    /// The most notes a chunk of the log holds (6 KB).
    static let chunkNotes = 256
    /// How many notes the log has room for (for tests).
    var logCapacity: Int { log.reduce(0) { $0 + $1.capacity } }
    /// Notes replayed into the per-key memory so far (a work count, for tests).
    private(set) var foldedNotes = 0
    /// The log's length past which it is folded (see `foldIfFull`), kept here: working it out
    /// at every note read the per-key memory's header, another cold line at 1,000 devices.
    private var foldPast = Self.foldAfterNotes
    /// Whether the platform has said how many keys the device's store holds (`allowNotes(forKeysInStore:)`).
    private var storeKeysKnown = false

    /// The app read these values while told of one event.
    mutating func noteReads(_ reads: [(key: String, write: WriteID)]) {
        // An app that read nothing (the built-in reader, at every notification) leaves the log,
        // a cold line at 1,000 devices, untouched.
        guard !reads.isEmpty else { return }
        for read in reads { append(Note(key: read.key, write: read.write, madeHere: false)) }
        foldIfFull()
    }

    /// Notes held back by the platform (`KVSAppPendingNotes`), in the order they came.
    mutating func note(_ notes: some Sequence<Note>) {
        for note in notes { append(note) }
        foldIfFull()
    }

    /// One device's run of the platform's notes: `notes` at `positions`
    /// (`KVSAppPendingNotes.orderByDevice(_:devices:)`), in order.
    mutating func note(_ notes: UnsafeBufferPointer<KVSAppPendingNotes.Pending>, at positions: ArraySlice<Int32>) {
        // One append per note, not `append(contentsOf:)` of a lazy map: that generic copy cost
        // about 140 instructions a note, most of what handing a note over cost.
        var start = positions.startIndex
        while start < positions.endIndex {
            let end = start + roomInLastChunk(for: positions.endIndex - start)
            // The chunk changed in place for the whole run: one access, not one a note.
            Self.append(notes, at: positions[start..<end], to: &log[log.count - 1])
            start = end
        }
        logCount += positions.count
        foldIfFull()
    }

    /// Whether `count` more notes would fold the log for the first time while the size of the
    /// device's store is not known: the platform then tells it (`allowNotes(forKeysInStore:)`).
    func needsStoreKeys(adding count: Int) -> Bool { !storeKeysKnown && logCount + count > foldPast }

    /// The device's store holds `keys` keys: before its first fold, the log may hold as many notes
    /// as the per-key memory can (64 a key), as it may after one.
    ///
    /// Why: an app that only reads was folded at 256 notes, only to learn how many keys it had
    /// read, and its per-key memory was built then: its table grown five times, a list per key
    /// grown, about 690 instructions a note, 17% of what hosting an observer cost over the
    /// built-in reader at 1,000 devices and 40% at 300 (docs/HOSTING.md "What hosting costs").
    /// The log it keeps instead takes about the memory that table and the log after it took.
    mutating func allowNotes(forKeysInStore keys: Int) {
        storeKeysKnown = true
        foldPast = max(foldPast, Self.writesPerKey * keys)
    }

    /// A write was made on the device to `key`.
    mutating func noteMadeHere(_ key: String, _ write: WriteID) {
        append(Note(key: key, write: write, madeHere: true))
        foldIfFull()
    }

    /// Appends one note to the log.
    private mutating func append(_ note: Note) {
        _ = roomInLastChunk(for: 1)
        log[log.count - 1].append(note)
        logCount += 1
    }

    /// Appends `notes` at `positions` to `chunk`, in order.
    private static func append(_ notes: UnsafeBufferPointer<KVSAppPendingNotes.Pending>, at positions: ArraySlice<Int32>,
                               to chunk: inout [Note]) {
        for position in positions { chunk.append(notes[Int(position)].note) }
    }

    /// How many of `count` notes the log's last chunk takes now (at least one), a new chunk
    /// begun when it is full. The first chunk grows as one array grew (to the notes it must
    /// hold, or double, up to a chunk): grown one note at a time from empty, its capacities
    /// (powers of two) held 10 MB more at 1,000 devices.
    private mutating func roomInLastChunk(for count: Int) -> Int {
        if log.isEmpty || log[log.count - 1].count == Self.chunkNotes {
            var chunk: [Note] = []
            if !log.isEmpty { chunk.reserveCapacity(Self.chunkNotes) }
            log.append(chunk)
        }
        let last = log.count - 1
        let taken = min(count, Self.chunkNotes - log[last].count)
        let needed = log[last].count + taken
        if needed > log[last].capacity { log[last].reserveCapacity(min(Self.chunkNotes, max(needed, 2 * log[last].capacity))) }
        return taken
    }

    /// Every write the app has seen, sorted: what its next write is built on.
    mutating func parents() -> [WriteID] {
        fold()
        // A set, then one sort: a scan of the list per write grew with the square of the writes.
        var union = Set<WriteID>()
        for (_, writes) in seen { union.formUnion(writes.writes) }
        return union.sorted()
    }

    /// Folds the log once it outgrows what the per-key memory can hold.
    private mutating func foldIfFull() {
        if logCount > foldPast { fold() }
    }

    /// Replays the log into the per-key memory, in order.
    private mutating func fold() {
        for chunk in log {
            for note in chunk { fold(note) }
        }
        foldedNotes += logCount
        // The first chunk's room kept for the next notes.
        if !log.isEmpty {
            log.removeLast(log.count - 1)
            log[0].removeAll(keepingCapacity: true)
        }
        logCount = 0
        foldPast = max(Self.foldAfterNotes, Self.writesPerKey * seen.count)
    }

    /// Replays one note into the per-key memory.
    @inline(__always) private mutating func fold(_ note: Note) {
        if note.madeHere {
            seen.updateValue(SeenWrites(note.write), forName: note.key)
        } else if let index = seen.index(forName: note.key) {
            // In place: a copy taken out of the table would be copied on every note.
            seen[index].note(note.write)
        } else {
            seen.updateValue(SeenWrites(note.write), forName: note.key)
        }
    }
}

/// One key's remembered writes: at most `KVSAppReadMemory.writesPerKey`, the oldest noted
/// evicted first (a ring: no shifting of the others).
private struct SeenWrites {
    private(set) var writes: [WriteID] = []
    /// When full, the slot of the oldest write: the next evicted.
    private var oldest = 0

    /// Room for this many writes from the start: grown from one write, a key's list was
    /// reallocated at its third and fifth (a third of what folding a reading app's log cost:
    /// docs/HOSTING.md "What hosting costs").
    private static let initialCapacity = 4

    init() {}
    init(_ write: WriteID) {
        writes.reserveCapacity(Self.initialCapacity)
        writes.append(write)
    }

    /// Adds `write` once.
    mutating func note(_ write: WriteID) {
        guard !writes.contains(write) else { return }
        if writes.count < KVSAppReadMemory.writesPerKey {
            writes.append(write)
        } else {
            writes[oldest] = write
            oldest = (oldest + 1) % KVSAppReadMemory.writesPerKey
        }
    }
}
