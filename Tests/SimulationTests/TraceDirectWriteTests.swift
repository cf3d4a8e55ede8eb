import Foundation
import Testing
import SyncLabKernel
@testable import SyncLabSimulation
#if canImport(Glibc)
import Glibc
#endif

/// A streamed trace file is written past the page cache (`TraceDirectWrite`) where the file
/// system allows it: in whole aligned blocks, its end through the cache, the same bytes.
@Suite("Trace direct write")
struct TraceDirectWriteTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).jsonl").path
    }

    /// Whether the temporary directory's file system takes direct writes (where it does not,
    /// the writer falls back to the page cache and the tests check only the bytes).
    static var directWritesWork: Bool {
        #if canImport(Glibc)
        let path = temporaryPath("probe")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let direct = TraceDirectWrite(descriptor: descriptor) else { return false }
        direct.deallocate()
        return true
        #else
        return false
        #endif
    }

    @Test("pieces of every awkward length, across several blocks, give the file the same bytes, its end written last")
    func awkwardLengthsKeepTheBytes() throws {
        #if canImport(Glibc)
        let path = Self.temporaryPath("trace-direct")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        guard var direct = TraceDirectWrite(descriptor: descriptor) else { return }
        defer { direct.deallocate() }
        var expected: [UInt8] = []
        var generator = SplitMix64(seed: 7)
        // Lengths around the alignment and the block, and one piece longer than a block.
        let lengths = [1, 4095, 4096, 4097, 100, TraceDirectWrite.blockBytes - 3, 7, TraceDirectWrite.blockBytes + 5_000, 12_345, 1]
        for length in lengths {
            let piece = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            expected += piece
            #expect(piece.withUnsafeBufferPointer { direct.write($0.baseAddress!, count: length) } == nil)
        }
        #expect(direct.isDirect)
        #expect(direct.finish() == nil)
        #expect(!direct.isDirect)
        #expect(direct.written == Int64(expected.count))
        #expect([UInt8](FileManager.default.contents(atPath: path) ?? Data()) == expected)
        #endif
    }

    @Test("a trace streamed to a regular file is written past the page cache: the same bytes and digest, no more than its end cached")
    func streamedTraceLeavesTheCache() throws {
        let path = Self.temporaryPath("trace-direct-stream")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = TraceFileWriter(path: path)
        // Chunks of 10,000 bytes (not a multiple of 4096): about 4 MB, several blocks.
        var streamed = TraceRecorder(enabled: true, deviceNames: TraceBufferTests.deviceNames, accountNames: ["main"], file: writer, chunkBytes: 10_000)
        TraceBufferTests.writeLines(&streamed, count: 8_000)
        streamed.flush()
        #expect(streamed.summary.bytes > 3 << 20)
        if Self.directWritesWork {
            #expect(writer.openedDirect)
            #expect(writer.pageCacheDrops == nil)
            // Handed over in whole 4096-byte blocks (the rest moved to the next chunk), so
            // written from the chunks themselves: all but the last chunk (at most 20,000 bytes
            // and the 4095 carried into it), handed over whole at the flush.
            #expect(writer.bytesWrittenInPlace % 4096 == 0)
            #expect(writer.bytesWrittenInPlace >= streamed.summary.bytes - 20_000 - 4096)
            #if canImport(Glibc)
            // Through the page cache (and `TraceWriteBehind`, 16 MB behind) every page would be.
            let (cached, total) = try Self.cachedPages(path)
            #expect(total > 700)
            #expect(cached <= 1)
            #endif
        }
        var kept = TraceRecorder(enabled: true, deviceNames: TraceBufferTests.deviceNames, accountNames: ["main"], chunkBytes: 10_000)
        TraceBufferTests.writeLines(&kept, count: 8_000)
        kept.flush()
        #expect([UInt8](FileManager.default.contents(atPath: path) ?? Data()) == kept.bytes)
        var digest = FNV1a64(); digest.combine(kept.bytes)
        #expect(writer.digest.value == digest.value)
        #expect(writer.writeFailure == nil)
    }

    #if canImport(Glibc)
    /// How many of the file's pages are in the page cache (`mincore`), of how many.
    static func cachedPages(_ path: String) throws -> (cached: Int, total: Int) {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let size = Int(status.st_size), page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        var flags = [UInt8](repeating: 0, count: (size + page - 1) / page)
        try #require(mincore(mapping, size, &flags) == 0)
        return (flags.filter { $0 & 1 != 0 }.count, flags.count)
    }
    #endif

    @Test("a trace flushed, then written on, then flushed again is whole: after its end the file is written through the cache")
    func writingOnAfterAFlush() throws {
        let path = Self.temporaryPath("trace-direct-twice")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = TraceFileWriter(path: path)
        var streamed = TraceRecorder(enabled: true, deviceNames: TraceBufferTests.deviceNames, accountNames: ["main"], file: writer, chunkBytes: 5_000)
        var kept = TraceRecorder(enabled: true, deviceNames: TraceBufferTests.deviceNames, accountNames: ["main"], chunkBytes: 5_000)
        TraceBufferTests.writeLines(&streamed, count: 700)
        TraceBufferTests.writeLines(&kept, count: 700)
        streamed.flush()
        TraceBufferTests.writeLines(&streamed, count: 300)
        TraceBufferTests.writeLines(&kept, count: 300)
        streamed.flush()
        kept.flush()
        #expect(streamed.summary.failure == nil)
        #expect(streamed.summary.bytes == Int64(kept.bytes.count))
        #expect([UInt8](FileManager.default.contents(atPath: path) ?? Data()) == kept.bytes)
    }
}
