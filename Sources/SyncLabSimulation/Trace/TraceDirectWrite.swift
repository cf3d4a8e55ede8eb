#if canImport(Glibc)
import Glibc
#endif

/// Writes a streamed trace to a regular file past the page cache (`O_DIRECT`, Linux): a
/// trace chunk handed over in whole aligned blocks is written straight from its memory to the
/// disk; other bytes are gathered into one aligned block of `blockBytes`, written as it fills.
///
/// Why: through the page cache, each of the trace's 1.4 GB went through the kernel's per-page
/// machinery three times (copied into a fresh cache page with its buffer heads and delayed
/// allocation, written back, dropped again by `TraceWriteBehind`): 0.4–0.6 s of the writer's
/// system time on our virtual machine, on the thread that also hashes the trace. A direct write
/// costs one block allocation per megabyte, and the thread sleeps while the disk takes the
/// bytes (it uses no core then). Nothing is left in the page cache, so a traced run's footprint
/// does not grow with its trace anywhere. The file's bytes are the same.
///
/// A direct write's memory, length and file offset must be multiples of the device's block
/// size (4096 here, the largest in common use): chunks and the block are aligned, only whole
/// blocks are written directly, and whatever is left at the end (less than 4096 bytes) is
/// written through the page cache once `O_DIRECT` is turned off (`finish`). Should the file
/// system refuse a direct write, the descriptor goes back to ordinary writes and nothing is lost.
struct TraceDirectWrite {
    /// The size of the block gathered and written at once. Small: a bench's chunks are
    /// written in place, only its last one is gathered.
    static let blockBytes = 64 << 10
    /// Direct writes start, and their lengths are rounded, at multiples of this.
    static let alignmentBytes = 4096

    /// `O_DIRECT`, which Swift's Glibc module leaves out (glibc defines it only under
    /// `_GNU_SOURCE`): the kernel's value for the architecture.
    #if arch(arm64) || arch(arm)
    static let directFlag: Int32 = 0o200000
    #else
    static let directFlag: Int32 = 0o40000
    #endif

    private let descriptor: Int32
    private let block: UnsafeMutableRawPointer
    /// Bytes gathered in `block` and not yet written.
    private var pending = 0
    /// Whether writes still go past the page cache (false once the tail, or a refused
    /// direct write, turned `O_DIRECT` off: from then on bytes are written as they come).
    private(set) var isDirect = true
    /// Bytes the file holds so far.
    private(set) var written: Int64 = 0
    /// Of them, bytes written straight from the caller's memory, not gathered first (tests).
    private(set) var writtenInPlace: Int64 = 0

    /// Nil unless `descriptor` is a regular file whose file system takes direct writes (Linux).
    init?(descriptor: Int32) {
        #if canImport(Glibc)
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let flags = fcntl(descriptor, F_GETFL)
        // Refused (EINVAL) by a file system without direct I/O.
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | Self.directFlag) == 0 else { return nil }
        self.descriptor = descriptor
        block = UnsafeMutableRawPointer.allocate(byteCount: Self.blockBytes, alignment: Self.alignmentBytes)
        #else
        return nil
        #endif
    }

    /// Frees the block (the descriptor belongs to the caller).
    func deallocate() { block.deallocate() }

    /// Writes `count` bytes from `source`: straight from there when nothing is gathered and
    /// they are whole aligned blocks (a trace chunk handed over in multiples of
    /// `alignmentBytes`), else gathered, each block written as it fills. Returns why the file
    /// is not whole if a write failed (`errno`'s text); the caller stops writing then.
    mutating func write(_ source: UnsafePointer<UInt8>, count: Int) -> String? {
        guard isDirect else { return writeAll(UnsafeRawPointer(source), count: count) }
        if pending == 0, count % Self.alignmentBytes == 0, Int(bitPattern: source) % Self.alignmentBytes == 0 {
            writtenInPlace += Int64(count)
            return writeAligned(UnsafeRawPointer(source), count: count)
        }
        var copied = 0
        while copied < count {
            let byteCount = Swift.min(count - copied, Self.blockBytes - pending)
            (block + pending).copyMemory(from: source + copied, byteCount: byteCount)
            pending += byteCount
            copied += byteCount
            if pending == Self.blockBytes {
                pending = 0
                if let failure = writeAligned(UnsafeRawPointer(block), count: Self.blockBytes) { return failure }
                if !isDirect { return writeAll(UnsafeRawPointer(source + copied), count: count - copied) }
            }
        }
        return nil
    }

    /// Writes what is gathered (the trace's end: its whole blocks directly, the last partial
    /// one through the page cache), and turns `O_DIRECT` off for anything written after.
    mutating func finish() -> String? {
        guard isDirect else { return nil }
        let whole = pending - pending % Self.alignmentBytes, tail = pending - whole
        pending = 0
        if whole > 0, let failure = writeAligned(UnsafeRawPointer(block), count: whole) { return failure }
        if isDirect { turnDirectOff() }
        return writeAll(UnsafeRawPointer(block + whole), count: tail)
    }

    /// Writes `count` bytes at `source` (aligned, a multiple of `alignmentBytes`) directly. A
    /// refused direct write (EINVAL: an alignment the file system does not take) is written
    /// plainly instead, and so is the rest of a short one (a full disk midway); either turns
    /// `O_DIRECT` off for good.
    private mutating func writeAligned(_ source: UnsafeRawPointer, count: Int) -> String? {
        #if canImport(Glibc)
        var result: Int
        repeat { result = Glibc.write(descriptor, source, count) } while result < 0 && errno == EINTR
        if result < 0, errno == EINVAL {
            turnDirectOff()
            return writeAll(source, count: count)
        }
        if result < 0 { return String(cString: strerror(errno)) }
        written += Int64(result)
        if result < count {
            turnDirectOff()
            return writeAll(source + result, count: count - result)
        }
        #endif
        return nil
    }

    private mutating func turnDirectOff() {
        #if canImport(Glibc)
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~Self.directFlag) }
        #endif
        isDirect = false
    }

    /// Writes `count` bytes through the page cache, retrying short and interrupted writes.
    private mutating func writeAll(_ source: UnsafeRawPointer, count: Int) -> String? {
        #if canImport(Glibc)
        var done = 0
        while done < count {
            let result = Glibc.write(descriptor, source + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            if result == 0 { return "the file took no bytes" }
            done += result
            written += Int64(result)
        }
        #endif
        return nil
    }
}
