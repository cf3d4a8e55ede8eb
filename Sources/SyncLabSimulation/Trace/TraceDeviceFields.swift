import SyncLabJSON

/// Every device's name as a transport line spells it after `"device":` — the opening quote and
/// the name escaped as a JSON string's inside — laid out once per run, so a line copies its
/// device's bytes instead of borrowing the name's `String` and checking it for escapes (one of
/// the two largest pieces of `TraceRecorder.begin`, on every one of a trace's 12 M lines). The
/// last entry is `"cloud`, for the cloud's own lines. The recorder lays out the run's account
/// names the same way (`init(names:last:)`, the last entry `"public`), for `visible` lines.
///
/// The bytes and offsets are read through plain pointers (a line reads them without a retain
/// or an array's checks); `storage` owns them, and copies of a recorder share it.
struct TraceDeviceFields {
    /// The entries' bytes, back to back.
    let bytes: UnsafePointer<UInt8>
    /// Entry `i` is `bytes[starts[i]..<starts[i + 1]]`.
    let starts: UnsafePointer<Int>
    /// The last entry's index (the one after the names'): the cloud's among devices.
    let last: Int
    /// The longest entry: what a line reserves for its device.
    let longest: Int
    private let storage: Storage

    init(deviceNames: [String]) { self.init(names: deviceNames, last: "cloud") }

    /// `names`, then `lastName` at index `last`.
    init(names: [String], last lastName: String) {
        var bytes: [UInt8] = [], starts: [Int] = [0]
        for name in names + [lastName] {
            // One rendering of escapes: JSON's own, its closing quote dropped.
            var quoted: [UInt8] = []
            JSON.writeString(name, into: &quoted)
            bytes += quoted.dropLast()
            starts.append(bytes.count)
        }
        storage = Storage(bytes: bytes, starts: starts)
        self.bytes = UnsafePointer(storage.bytes)
        self.starts = UnsafePointer(storage.starts)
        last = names.count
        longest = zip(starts.dropFirst(), starts).map { $0 - $1 }.max() ?? 0
    }

    /// Entry `index`'s first byte and length. An index outside the run's devices (accounts) is
    /// a programming error: the simulator's devices and accounts are the run's, in order.
    @inline(__always) func entry(_ index: Int) -> (start: UnsafePointer<UInt8>, count: Int) {
        precondition(index >= 0 && index <= last, "TraceDeviceFields: no entry \(index) of \(last)")
        let start = starts[index]
        return (bytes + start, starts[index + 1] - start)
    }

    /// Owns the memory the pointers read (freed with the last recorder using it).
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let starts: UnsafeMutablePointer<Int>

        init(bytes: [UInt8], starts: [Int]) {
            self.bytes = .allocate(capacity: max(bytes.count, 1))
            self.bytes.initialize(from: bytes, count: bytes.count)
            self.starts = .allocate(capacity: starts.count)
            self.starts.initialize(from: starts, count: starts.count)
        }

        deinit { bytes.deallocate(); starts.deallocate() }
    }
}
