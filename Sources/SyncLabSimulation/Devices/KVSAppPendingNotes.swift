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
    typealias Pending = KVSAppPendingNote

    /// The notes held before they are handed over. The apps' stores append their reads here
    /// straight (`KVSAppHosting.handle(_:values:device:notingReadsIn:)`).
    var notes: [Pending] = []

    var isEmpty: Bool { notes.isEmpty }
    /// Whether the buffer holds its bound and should be flushed.
    var isFull: Bool { notes.count >= Self.flushAfterNotes }

    /// Notes device `device`'s app read these values; true when the buffer should be flushed.
    mutating func noteReads(_ reads: [KVSAppRead], device: Int) -> Bool {
        for read in reads { notes.append(Pending(device: Int32(device), note: .init(key: read.key, write: read.write, madeHere: false))) }
        return isFull
    }

    /// Notes a write made on device `device` to `key`; true when the buffer should be flushed.
    mutating func noteMadeHere(_ key: String, _ write: WriteID, device: Int) -> Bool {
        notes.append(Pending(device: Int32(device), note: .init(key: key, write: write, madeHere: true)))
        return isFull
    }

    /// The positions of `notes` grouped by device in device order, each device's in the order
    /// noted: the order they are handed over in; and where each device's run of them ends (device
    /// `d`'s run is `order[ends[d - 1]..<ends[d]]`, the first's from 0).
    ///
    /// A counting sort, stable and linear (the comparison sort before it was about a fifth of what
    /// noting a read cost), of positions, not of the notes: sorting the notes themselves copied
    /// each into a second buffer and destroyed it twice, a third of what handing a note over
    /// cost (docs/HOSTING.md "What hosting costs").
    /// - Parameter devices: how many devices there are (every note's device is below).
    static func orderByDevice(_ notes: [Pending], devices: Int) -> (order: [Int32], ends: [Int]) {
        notes.withUnsafeBufferPointer { notes in
            // Fields read through the buffer: a copy of a note would retain its key.
            var starts = [Int](repeating: 0, count: devices + 1)
            // The counts changed through the buffer: through the array, each change checked
            // the array's uniqueness and bounds, about half of the sort's 44 instructions a note
            // at 1,000 devices (docs/HOSTING.md "What hosting costs").
            let order = starts.withUnsafeMutableBufferPointer { starts in
                for position in notes.indices { starts[Int(notes[position].device) + 1] += 1 }
                for device in 1..<starts.count { starts[device] += starts[device - 1] }
                return [Int32](unsafeUninitializedCapacity: notes.count) { order, initialized in
                    for position in notes.indices {
                        let device = Int(notes[position].device)
                        order[starts[device]] = Int32(truncatingIfNeeded: position)
                        starts[device] += 1
                    }
                    initialized = notes.count
                }
            }
            // Each device's start has moved to its end.
            starts.removeLast()
            return (order, starts)
        }
    }
}
