import SyncLabProtocol
import SyncLabEngines

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
    mutating func noteReads(_ reads: [KVSAppRead], device: Int) -> Bool {
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
        // A counting sort, stable (each device's notes are placed in the order noted) and linear:
        // the comparison sort it replaces was about a fifth of what noting a read cost
        // (docs/LIBRARY.md "What hosting costs").
        guard let highest = notes.lazy.map(\.device).max() else { return [] }
        var starts = [Int](repeating: 0, count: Int(highest) + 2)
        for pending in notes { starts[Int(pending.device) + 1] += 1 }
        for device in 1..<starts.count { starts[device] += starts[device - 1] }
        let taken = [Pending](unsafeUninitializedCapacity: notes.count) { buffer, initialized in
            for pending in notes {
                let device = Int(pending.device)
                (buffer.baseAddress! + starts[device]).initialize(to: pending)
                starts[device] += 1
            }
            initialized = notes.count
        }
        notes.removeAll(keepingCapacity: true)
        return taken
    }
}
