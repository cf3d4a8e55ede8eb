import Foundation

/// The simulator and outcome of the last `synclab bench` run, kept alive until the process ends.
///
/// Freeing them is work the bench has no use for: at 1,000 devices with `--check`, the world and
/// the 2.6 M-fact history are hundreds of MB of small and large blocks, and releasing them one by
/// one after the figures are printed cost the process wall and CPU time that `--check` was measured
/// by against the plain bench (issue 13, session 10). Kept here, they go with the process's address
/// space when `synclab` exits. Only one run is kept: a later bench in the same process (a test)
/// replaces it, so memory stays bounded by the largest run.
enum BenchLeftovers {
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var kept: [Any] = []
    }
    private static let slot = Slot()

    /// Keeps `values` alive until the next call or the end of the process, releasing the previous ones.
    static func keep(_ values: [Any]) {
        // The previous run's values are released here, outside the lock, in the caller's time.
        var previous: [Any] = values
        slot.lock.lock()
        swap(&previous, &slot.kept)
        slot.lock.unlock()
        _ = previous
    }

    /// How many values are kept (for tests).
    static var count: Int {
        slot.lock.lock(); defer { slot.lock.unlock() }
        return slot.kept.count
    }
}
