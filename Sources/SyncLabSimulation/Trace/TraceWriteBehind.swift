#if canImport(Glibc)
import Glibc
#endif

/// Keeps a streamed trace from filling the page cache where it cannot be written past it (a
/// file system without direct writes; `TraceDirectWrite` is tried first): after each chunk is
/// written the kernel is asked to start writing it to disk, and the part written some chunks
/// before (clean by then) is dropped from the cache (`posix_fadvise(POSIX_FADV_DONTNEED)` does
/// both: it starts writeback of dirty pages and drops clean ones).
///
/// Why: copying 1.4 GB into fresh page-cache pages cost the writer's thread 2.3 s of system time
/// on our virtual machine (pages freed a few seconds before are handed back to the host, and
/// every first touch is a fault there), against 0.4 s when the same few megabytes of pages are
/// dropped and reused as the file grows; the writer, not the simulation, then set the pace of a
/// traced run. It changes no byte of the file, only when the bytes reach the disk. The cache
/// holds at most `lagBytes` of the trace, so a traced run's footprint does not grow with its
/// trace anywhere. Regular files on Linux only; elsewhere (and for devices) nothing is done.
///
/// The price: the trace reaches the disk while it is written, at the disk's pace (a starting
/// writeback may wait for room in the device's queue), where before a trace removed within half
/// a minute (the bench's temporary file) never left the cache. This machine's disk takes
/// 1.6 GB/s, faster than the trace is made; on a slow disk the writer, and through its bounded
/// queue the simulation, would wait for it.
struct TraceWriteBehind {
    /// How far behind the end of the file pages are dropped by default: time enough for their
    /// writeback to finish (a page still being written is skipped, and stays cached).
    static let lagBytes: Int64 = 16 << 20

    private let descriptor: Int32
    private let lagBytes: Int64
    /// The file's bytes before this offset have been dropped from the cache (or skipped).
    private var droppedThrough: Int64 = 0
    /// How many times a range was dropped (tests).
    private(set) var drops = 0

    /// Nil unless `descriptor` is a regular file on a system with `posix_fadvise`.
    init?(descriptor: Int32, lagBytes: Int64 = TraceWriteBehind.lagBytes) {
        self.lagBytes = lagBytes
        #if canImport(Glibc)
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.descriptor = descriptor
        #else
        return nil
        #endif
    }

    /// After `count` bytes were written at `offset`: starts their writeback and drops what lies
    /// more than `lagBytes` behind them (how many calls dropped something: `drops`). Failures are ignored: this only advises the kernel.
    mutating func wrote(_ count: Int, at offset: Int64) {
        #if canImport(Glibc)
        _ = posix_fadvise(descriptor, off_t(offset), off_t(count), POSIX_FADV_DONTNEED)
        let dropEnd = offset + Int64(count) - lagBytes
        if dropEnd > droppedThrough {
            _ = posix_fadvise(descriptor, off_t(droppedThrough), off_t(dropEnd - droppedThrough), POSIX_FADV_DONTNEED)
            droppedThrough = dropEnd
            drops += 1
        }
        #endif
    }
}
