import Dispatch
import Foundation
import SyncLabKernel

/// Streams trace chunks to a file, keeping the digest and byte count as it goes, so a traced
/// run's memory does not grow with its trace. Without a file (a trace kept in memory) it only
/// hashes, so the run's digest is ready when the run ends.
///
/// Hashing (FNV-1a is a chain of dependent multiplies, a byte at a time) costs as much as
/// formatting the lines, so it runs on a serial background queue while the simulation formats
/// the next chunk; writing the file runs on a second one, so a write that waits for the disk
/// never holds up the hash (nor the hash the disk). Nothing the simulation does depends on
/// them: each queue takes the chunks whole in the order they were handed over, so the file and
/// its digest are the same bytes and value as if written inline (the simulation path itself
/// stays single-threaded). A chunk is free again once both queues are done with it; at most
/// `chunksInFlight` chunks wait, so memory stays bounded whatever the trace's length.
final class TraceFileWriter: @unchecked Sendable {
    /// Chunks handed over and not yet hashed and written: the simulation waits when this many
    /// are. Four (not two): a chunk is held while the disk takes it (`TraceDirectWrite`), and
    /// the spare ones absorb a queue's thread descheduled on two cores shared with the system.
    static let chunksInFlight = 4

    private let handle: FileHandle?
    private let hashQueue = DispatchQueue(label: "synclab.trace-digest")
    private let fileQueue = DispatchQueue(label: "synclab.trace-file")
    private let slots = DispatchSemaphore(value: TraceFileWriter.chunksInFlight)
    /// Written chunks, for reuse. Guarded by `spareLock`.
    private var spare: [TraceChunk] = []
    private let spareLock = NSLock()
    // Touched only on `hashQueue`; read after `finish()`.
    private var hash = FNV1a64()
    private var hashed: Int64 = 0
    // Touched only on `fileQueue`; read after `finish()`.
    /// Bytes handed to the file so far.
    private var filed: Int64 = 0
    /// Why the file is not the whole trace (it could not be opened, or a write failed — a full
    /// disk): the first failure, after which nothing more is written but everything is still
    /// hashed, so the run goes on and its digest is right while the caller reports the file bad.
    private var failure: String?
    /// Writes a regular file past the page cache (Linux); nil for other files, and for a file
    /// system without direct writes, which `writeBehind` keeps out of the cache instead.
    private var direct: TraceDirectWrite?
    /// Keeps the file's pages from piling up in the page cache (regular files on Linux).
    private var writeBehind: TraceWriteBehind?
    /// What a chunk's hand-over should be a whole number of bytes of (`TraceBuffer`): the
    /// direct write's alignment, so a chunk is written straight from its memory, or 1.
    let handOverMultiple: Int

    /// Creates (or truncates) the file. A file that cannot be opened gives a writer that only
    /// hashes and says why in `failure` — never a trace quietly kept in memory instead.
    ///
    /// Opened in place, as a shell's `>` opens it: an existing path is written through (a
    /// symlink's target, a device such as /dev/null or /dev/full), never replaced.
    /// (`FileManager.createFile` writes a new file and renames it over the path: it replaced a
    /// symlink with a file, and /dev/full itself with a regular file holding the trace.)
    ///
    /// `direct: false` writes through the page cache even where direct writes are possible
    /// (the write-behind's tests).
    init(path: String, direct: Bool = true, writeBehindLagBytes: Int64 = TraceWriteBehind.lagBytes) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            let directWrite = direct ? TraceDirectWrite(descriptor: descriptor) : nil
            self.direct = directWrite
            if directWrite == nil { writeBehind = TraceWriteBehind(descriptor: descriptor, lagBytes: writeBehindLagBytes) }
            handOverMultiple = directWrite == nil ? 1 : TraceDirectWrite.alignmentBytes
        } else {
            handle = nil
            handOverMultiple = 1
            failure = "cannot open \(path) for writing"
        }
    }

    /// A writer into an open `handle` (tests give it one that refuses writes).
    init(handle: FileHandle) { self.handle = handle; handOverMultiple = 1 }

    /// A writer that only hashes what it is handed (the chunks are kept by their buffer).
    init() { handle = nil; handOverMultiple = 1 }

    /// Takes the chunk's first `count` bytes to hash and write, and returns a chunk to go on
    /// with (a written one when there is one). The caller must not touch `chunk` after this.
    func write(_ chunk: TraceChunk, count: Int) -> TraceChunk {
        slots.wait()
        let box = ChunkHandOver(chunk: chunk, count: count, users: handle == nil ? 1 : 2)
        hashQueue.async { [self] in
            hash.combine(UnsafeBufferPointer(start: box.chunk.base, count: box.count))
            hashed += Int64(box.count)
            release(box)
        }
        if handle != nil {
            fileQueue.async { [self] in
                writeToFile(box.chunk.base, count: box.count)
                release(box)
            }
        }
        // A written chunk is nobody else's: the buffer that handed it over made it its own at
        // the start of the line it was handed over in (`TraceBuffer.beginLine`).
        if let written = spareLock.withLock({ spare.popLast() }) { return written }
        chunksMade += 1
        return TraceChunk(capacity: chunk.capacity)
    }

    /// One queue is done with `box`: the last one makes its chunk free again.
    private func release(_ box: ChunkHandOver) {
        let free = spareLock.withLock {
            box.users -= 1
            if box.users == 0 { spare.append(box.chunk) }
            return box.users == 0
        }
        if free { slots.signal() }
    }

    /// Writes `count` bytes at `source` to the file, after the bytes before them (on `fileQueue`).
    private func writeToFile(_ source: UnsafeMutablePointer<UInt8>, count: Int) {
        let offset = filed
        filed += Int64(count)
        guard count > 0, failure == nil, let handle else { return }
        if direct != nil {
            if let reason = direct?.write(source, count: count) { failure = failedAfter(direct?.written ?? offset, reason) }
            return
        }
        // `write(contentsOf:)` throws where `write(_:)` would trap (ENOSPC, EBADF).
        do {
            try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(source), count: count, deallocator: .none))
            // Every chunk so far was written whole, in order: this one ends the file.
            writeBehind?.wrote(count, at: offset)
        } catch {
            failure = failedAfter(offset, error.localizedDescription)
        }
    }

    private func failedAfter(_ byteCount: Int64, _ reason: String) -> String {
        "writing the trace failed after \(byteCount) bytes: \(reason)"
    }

    /// Chunks this writer made because none written was free to reuse: at most
    /// `chunksInFlight`, however long the trace (the memory bound, in counts). Touched only by
    /// the thread handing chunks over.
    private(set) var chunksMade = 0

    /// Waits for every chunk handed over to be hashed and written (a direct write's last,
    /// partial block too); then `digest` and `bytesWritten` are final.
    func finish() {
        hashQueue.sync {}
        fileQueue.sync {
            guard failure == nil, let reason = direct?.finish() else { return }
            failure = failedAfter(direct?.written ?? filed, reason)
        }
    }

    /// 64-bit FNV-1a of everything written (after `finish()`).
    var digest: FNV1a64 { hashQueue.sync { hash } }
    var bytesWritten: Int64 { hashQueue.sync { hashed } }
    /// Why the file does not hold the whole trace, if it does not (after `finish()`).
    var writeFailure: String? { fileQueue.sync { failure } }
    /// How many times written pages were dropped from the page cache; nil when the file is not
    /// one the writer keeps out of the cache that way (written past it, not a regular file, or
    /// not Linux).
    var pageCacheDrops: Int? { fileQueue.sync { writeBehind?.drops } }
    /// Bytes written past the page cache straight from the chunks they were handed over in.
    var bytesWrittenInPlace: Int64 { fileQueue.sync { direct?.writtenInPlace ?? 0 } }
    /// Whether the file was opened for writing past the page cache (`TraceDirectWrite`).
    var openedDirect: Bool { fileQueue.sync { direct != nil } }

    // Every block on the queues holds the writer, so none is pending here; and this may run on
    // a queue itself (the last block's release), where waiting for it would deadlock.
    deinit {
        direct?.deallocate()
        try? handle?.close()
    }
}

/// A chunk on its way to the writer's queues: owned by them from the hand-over on, free again
/// when the last of its `users` (the hash, the file) is done with it.
private final class ChunkHandOver: @unchecked Sendable {
    let chunk: TraceChunk
    let count: Int
    /// Guarded by the writer's `spareLock`.
    var users: Int

    init(chunk: TraceChunk, count: Int, users: Int) {
        self.chunk = chunk; self.count = count; self.users = users
    }
}
