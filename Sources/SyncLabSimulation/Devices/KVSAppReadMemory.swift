import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// What a device's running KVS app has seen since it launched, to build its own writes on
/// (their parents): per key, the writes it read since the last write made on the device to that
/// key (the user's change it was told of, or its own), which replaces them; the most recent 64
/// per key (a bound on an app's memory).
///
/// Most apps only read. So noting a read appends it to a log (one flat array, written in order);
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
    /// instructions (docs/LIBRARY.md "What hosting costs").
    static let foldAfterNotes = 256

    /// One note: `write` read as the value of `key`, or made on the device to it (`madeHere`).
    typealias Note = KVSAppNote

    /// Folded memory: per key, its writes. A `NameTable`: its FNV-1a probe is cheaper than a
    /// `Dictionary`'s seeded SipHash at every note folded; the order of its entries is not seen
    /// (`parents()` sorts).
    private var seen = NameTable<SeenWrites>()
    /// Notes not folded yet, in the order they came.
    private var log: [Note] = []
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
        for read in reads { log.append(Note(key: read.key, write: read.write, madeHere: false)) }
        foldIfFull()
    }

    /// Notes held back by the platform (`KVSAppPendingNotes`), in the order they came.
    mutating func note(_ notes: some Sequence<Note>) {
        log.append(contentsOf: notes)
        foldIfFull()
    }

    /// One device's run of the platform's notes: `notes` at `positions`
    /// (`KVSAppPendingNotes.orderByDevice(_:devices:)`), in order.
    mutating func note(_ notes: UnsafeBufferPointer<KVSAppPendingNotes.Pending>, at positions: ArraySlice<Int32>) {
        // One append per note, not `append(contentsOf:)` of a lazy map: that generic copy cost
        // about 140 instructions a note, most of what handing a note over cost. The log grows
        // as that append grew it (to the notes it must hold, or double): grown one note at a
        // time from empty, its capacities (powers of two) held 10 MB more at 1,000 devices.
        let needed = log.count + positions.count
        if needed > log.capacity { log.reserveCapacity(max(needed, 2 * log.capacity)) }
        for position in positions { log.append(notes[Int(position)].note) }
        foldIfFull()
    }

    /// Whether `count` more notes would fold the log for the first time while the size of the
    /// device's store is not known: the platform then tells it (`allowNotes(forKeysInStore:)`).
    func needsStoreKeys(adding count: Int) -> Bool { !storeKeysKnown && log.count + count > foldPast }

    /// The device's store holds `keys` keys: before its first fold, the log may hold as many notes
    /// as the per-key memory can (64 a key), as it may after one.
    ///
    /// Why: an app that only reads was folded at 256 notes, only to learn how many keys it had
    /// read, and its per-key memory was built then: its table grown five times, a list per key
    /// grown, about 690 instructions a note, 17% of what hosting an observer cost over the
    /// built-in reader at 1,000 devices and 40% at 300 (docs/LIBRARY.md "What hosting costs").
    /// The log it keeps instead takes about the memory that table and the log after it took.
    mutating func allowNotes(forKeysInStore keys: Int) {
        storeKeysKnown = true
        foldPast = max(foldPast, Self.writesPerKey * keys)
    }

    /// A write was made on the device to `key`.
    mutating func noteMadeHere(_ key: String, _ write: WriteID) {
        log.append(Note(key: key, write: write, madeHere: true))
        foldIfFull()
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
        if log.count > foldPast { fold() }
    }

    /// Replays the log into the per-key memory, in order.
    private mutating func fold() {
        for note in log {
            if note.madeHere {
                seen.updateValue(SeenWrites(note.write), forName: note.key)
            } else if let index = seen.index(forName: note.key) {
                // In place: a copy taken out of the table would be copied on every note.
                seen[index].note(note.write)
            } else {
                seen.updateValue(SeenWrites(note.write), forName: note.key)
            }
        }
        foldedNotes += log.count
        log.removeAll(keepingCapacity: true)
        foldPast = max(Self.foldAfterNotes, Self.writesPerKey * seen.count)
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
    /// docs/LIBRARY.md "What hosting costs").
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
