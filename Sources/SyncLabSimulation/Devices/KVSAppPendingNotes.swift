import SyncLabProtocol

/// What every device's KVS app read, and the writes made on those devices, noted in one buffer in
/// the order they came and handed to the devices' `KVSAppReadMemory`s in batches.
///
/// Why: at 1,000 devices, noting a read straight into its device's log touched two cold cache
/// lines at every notification (the log's header and its end), most of what hosting a reading
/// app cost over the built-in reader. This buffer's end stays in the cache; a flush sorts it by
/// device, stably (each device's notes keep their order, so folding them gives the same
/// parents), and appends each device's notes in one go. A device's memory is complete only
/// after a flush: the platform flushes before it asks a memory for parents and before a
/// device's memory is dropped (the app's relaunch).
struct KVSAppPendingNotes {
    /// The notes held before they are handed over.
    static let flushAfterNotes = 32_768

    /// A note and the index of its device.
    struct Pending {
        var device: Int32
        var note: KVSAppReadMemory.Note
    }

    private var notes: [Pending] = []

    var isEmpty: Bool { notes.isEmpty }

    /// Notes device `device`'s app read these values; true when the buffer should be flushed.
    mutating func noteReads(_ reads: [(key: String, write: WriteID)], device: Int) -> Bool {
        for read in reads { notes.append(Pending(device: Int32(device), note: .init(key: read.key, write: read.write, madeHere: false))) }
        return notes.count >= Self.flushAfterNotes
    }

    /// Notes a write made on device `device` to `key`; true when the buffer should be flushed.
    mutating func noteMadeHere(_ key: String, _ write: WriteID, device: Int) -> Bool {
        notes.append(Pending(device: Int32(device), note: .init(key: key, write: write, madeHere: true)))
        return notes.count >= Self.flushAfterNotes
    }

    /// Every note held, grouped by device in device order, each device's in the order noted;
    /// the buffer is left empty.
    mutating func takeByDevice() -> [Pending] {
        // `sort(by:)` is stable: a device's notes stay in their order.
        var taken = notes
        notes.removeAll(keepingCapacity: true)
        taken.sort { $0.device < $1.device }
        return taken
    }
}
