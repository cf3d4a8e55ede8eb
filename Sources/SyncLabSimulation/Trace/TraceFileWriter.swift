import Dispatch
import Foundation
import SyncLabKernel

/// Streams trace chunks to a file, keeping the digest and byte count as it goes, so a traced
/// run's memory does not grow with its trace. Without a file (a trace kept in memory) it only
/// hashes, so the run's digest is ready when the run ends.
///
/// Hashing (FNV-1a is a chain of dependent multiplies, a byte at a time) and the kernel's copy
/// into the page cache cost as much as formatting the lines, so they run on one serial
/// background queue while the simulation formats the next chunk. Nothing the simulation does
/// depends on them: the chunks are hashed and written whole in the order they were handed over,
/// so the file and its digest are the same bytes and value as if written inline (the simulation
/// path itself stays single-threaded). At most `chunksInFlight` chunks wait, so memory stays
/// bounded whatever the trace's length.
final class TraceFileWriter: @unchecked Sendable {
    /// Chunks handed over and not yet written: the simulation waits when this many are.
    static let chunksInFlight = 2

    private let handle: FileHandle?
    private let queue = DispatchQueue(label: "synclab.trace-file")
    private let slots = DispatchSemaphore(value: TraceFileWriter.chunksInFlight)
    /// Written chunks, for reuse. Guarded by `spareLock`.
    private var spare: [TraceChunk] = []
    private let spareLock = NSLock()
    // Touched only on `queue`; read after `finish()`.
    private var hash = FNV1a64()
    private var written: Int64 = 0
    /// Why the file is not the whole trace (it could not be opened, or a write failed — a full
    /// disk): the first failure, after which nothing more is written but everything is still
    /// hashed, so the run goes on and its digest is right while the caller reports the file bad.
    private var failure: String?
    /// Keeps the file's pages from piling up in the page cache (regular files on Linux).
    private var writeBehind: TraceWriteBehind?

    /// Creates (or truncates) the file. A file that cannot be opened gives a writer that only
    /// hashes and says why in `failure` — never a trace quietly kept in memory instead.
    ///
    /// Opened in place, as a shell's `>` opens it: an existing path is written through (a
    /// symlink's target, a device such as /dev/null or /dev/full), never replaced.
    /// (`FileManager.createFile` writes a new file and renames it over the path: it replaced a
    /// symlink with a file, and /dev/full itself with a regular file holding the trace.)
    init(path: String, writeBehindLagBytes: Int64 = TraceWriteBehind.lagBytes) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            writeBehind = TraceWriteBehind(descriptor: descriptor, lagBytes: writeBehindLagBytes)
        } else {
            handle = nil
            failure = "cannot open \(path) for writing"
        }
    }

    /// A writer into an open `handle` (tests give it one that refuses writes).
    init(handle: FileHandle) { self.handle = handle }

    /// A writer that only hashes what it is handed (the chunks are kept by their buffer).
    init() { handle = nil }

    /// Takes the chunk's first `count` bytes to hash and write, and returns a chunk to go on
    /// with (a written one when there is one). The caller must not touch `chunk` after this.
    func write(_ chunk: TraceChunk, count: Int) -> TraceChunk {
        slots.wait()
        let box = ChunkHandOver(chunk: chunk, count: count)
        queue.async { [self] in
            let bytes = UnsafeBufferPointer(start: box.chunk.base, count: box.count)
            hash.combine(bytes)
            written += Int64(box.count)
            if box.count > 0, failure == nil, let handle {
                // `write(contentsOf:)` throws where `write(_:)` would trap (ENOSPC, EBADF).
                do {
                    try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(box.chunk.base), count: box.count, deallocator: .none))
                    // Every chunk so far was written whole, in order: this one ends the file.
                    writeBehind?.wrote(box.count, at: written - Int64(box.count))
                } catch {
                    failure = "writing the trace failed after \(written - Int64(box.count)) bytes: \(error.localizedDescription)"
                }
            }
            spareLock.withLock { spare.append(box.chunk) }
            slots.signal()
        }
        // A written chunk is nobody else's: the buffer that handed it over made it its own at
        // the start of the line it was handed over in (`TraceBuffer.beginLine`).
        if let written = spareLock.withLock({ spare.popLast() }) { return written }
        chunksMade += 1
        return TraceChunk(capacity: chunk.capacity)
    }

    /// Chunks this writer made because none written was free to reuse: at most
    /// `chunksInFlight`, however long the trace (the memory bound, in counts). Touched only by
    /// the thread handing chunks over.
    private(set) var chunksMade = 0

    /// Waits for every chunk handed over to be written; then `digest` and `bytesWritten` are final.
    func finish() { queue.sync {} }

    /// 64-bit FNV-1a of everything written (after `finish()`).
    var digest: FNV1a64 { queue.sync { hash } }
    var bytesWritten: Int64 { queue.sync { written } }
    /// Why the file does not hold the whole trace, if it does not (after `finish()`).
    var writeFailure: String? { queue.sync { failure } }
    /// How many times written pages were dropped from the page cache; nil when the file is not
    /// one the writer keeps out of the cache (not a regular file, or not Linux).
    var pageCacheDrops: Int? { queue.sync { writeBehind?.drops } }

    // Every block on `queue` holds the writer, so none is pending here; and this may run on
    // `queue` itself (the last block's release), where waiting for it would deadlock.
    deinit { try? handle?.close() }
}

/// A chunk on its way to the writer's queue: owned by the queue from the hand-over on.
private struct ChunkHandOver: @unchecked Sendable {
    let chunk: TraceChunk
    let count: Int
}
