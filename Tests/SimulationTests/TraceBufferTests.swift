import Foundation
import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabSimulation

/// The trace's byte path: lines formatted into raw chunks, handed whole to the file writer's
/// queue (hashed and written there) or kept in memory. Small chunks make one trace cross many.
@Suite("Trace buffer")
struct TraceBufferTests {
    /// The devices `writeLines` writes for (by index).
    static let deviceNames = (0..<7).map { "d\($0)" }

    /// Writes the same lines, of every writer the simulator uses, into `recorder`.
    static func writeLines(_ recorder: inout TraceRecorder, count: Int) {
        for index in 0..<count {
            let time = SimInstant(microseconds: Int64(index) * 1_234_567)
            recorder.begin(time, .send, device: index % 7, store: .kvs, request: UInt64(index))
            recorder.add("kind", "fetch"); recorder.add("bytes", Int64(-index)); recorder.end()
            recorder.log(time, index % 3 == 0 ? nil : 1, .records, "event", [("a \"quoted\"\n", "\(index)"), ("b", "\u{1}é")])
            recorder.notification(time, 2, AppNotification(store: .kvs, reason: "serverChange", items: index % 2 == 0 ? [] : ["k\(index)", "x\\y"]))
            recorder.observation(time, 3, .visible(item: ItemKey(account: AccountID(index: 0), store: .kvs, name: "k\(index)"), value: .kvs(.integer(Int64(index))),
                                                       write: WriteID(device: DeviceID(index: index % 2), sequence: UInt32(index), derived: index % 5 == 0), cause: .local))
            recorder.record(time, .note, [("text", .string(String(repeating: "long ", count: index % 40))), ("n", .double(Double(index) / 3)),
                                          ("o", .object([JSONField("x", .array([.bool(true), .null, .uint(UInt64.max)]))]))])
        }
    }

    /// `count` rounds of `writeLines` kept in memory, and streamed through `writer` into `path`:
    /// the kept recorder, the streaming one (flushed) and the file's bytes.
    static func keptAndStreamed(count: Int, chunkBytes: Int, to path: String, through writer: TraceFileWriter) -> (kept: TraceRecorder, streamed: TraceRecorder, file: [UInt8]) {
        var kept = TraceRecorder(enabled: true, deviceNames: deviceNames, accountNames: ["main"], chunkBytes: chunkBytes)
        writeLines(&kept, count: count)
        kept.flush()
        var streamed = TraceRecorder(enabled: true, deviceNames: deviceNames, accountNames: ["main"], file: writer, chunkBytes: chunkBytes)
        writeLines(&streamed, count: count)
        streamed.flush()
        return (kept, streamed, [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }

    @Test("a trace streamed through many small chunks is the bytes of the same trace kept in memory, with their FNV-1a digest")
    func streamedEqualsKept() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-buffer-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = TraceFileWriter(path: path)
        let (kept, streamed, file) = Self.keptAndStreamed(count: 400, chunkBytes: 256, to: path, through: writer)
        #expect(kept.bytes.count > 100 * 256) // many chunks
        #expect(file == kept.bytes)
        #expect(streamed.bytes.isEmpty)
        var digest = FNV1a64(); digest.combine(kept.bytes)
        #expect(writer.digest.value == digest.value)
        #expect(writer.bytesWritten == Int64(kept.bytes.count))
        // Every line is one JSON object, as the JSON renderer would write it.
        let text = String(decoding: kept.bytes, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 400 * 5)
        #expect(text.contains(#"{"t_us":1234567,"ev":"log","device":"d1","store":"records","event":"event","details":{"a \"quoted\"\n":"1","b":"\u0001é"}}"#))
        #expect(text.contains(#""write":"d1:m5","value":5"#))
        #expect(text.contains(#""n":0.3333333333333333,"o":{"x":[true,null,18446744073709551615]}}"#))
    }

    @Test("a streaming recorder dropped with chunks still on the writer's queue (a run abandoned midway) neither waits nor crashes")
    func droppedWhileWriting() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-drop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var written = 0
        for round in 0..<200 {
            let path = directory.appendingPathComponent("\(round).jsonl").path
            do {
                // The writer's last release can come from its own queue, at the end of the last chunk's write.
                var recorder = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], file: TraceFileWriter(path: path), chunkBytes: 64)
                Self.writeLines(&recorder, count: 3)
            }
            written += 1
        }
        #expect(written == 200)
    }

    @Test("a trace file whose writes fail (a full disk, a handle that refuses writes) says so instead of trapping, and still hashes the whole trace")
    func failedWriteIsReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-refused-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        // Opened for reading only: every write fails (EBADF), as a write to a full disk fails (ENOSPC).
        let handle = try #require(FileHandle(forReadingAtPath: path))
        let writer = TraceFileWriter(handle: handle)
        var streamed = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], file: writer, chunkBytes: 256)
        Self.writeLines(&streamed, count: 100)
        streamed.flush()
        var kept = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], chunkBytes: 256)
        Self.writeLines(&kept, count: 100)
        kept.flush()
        let summary = streamed.summary
        #expect(summary.failure?.hasPrefix("writing the trace failed after 0 bytes") == true)
        #expect(summary.bytes == Int64(kept.bytes.count))
        var digest = FNV1a64(); digest.combine(kept.bytes)
        #expect(summary.digest == digest.value)
    }

    @Test("a trace file path that is a symlink is written through to its target, not replaced by a file")
    func symlinkIsWrittenThrough() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.jsonl").path, link = directory.appendingPathComponent("link.jsonl").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old, longer than the trace\n".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        var recorder = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], file: TraceFileWriter(path: link), chunkBytes: 256)
        Self.writeLines(&recorder, count: 1)
        recorder.flush()
        #expect(recorder.summary.failure == nil)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        let written = [UInt8](FileManager.default.contents(atPath: target) ?? Data())
        #expect(Int64(written.count) == recorder.summary.bytes) // truncated, then the whole trace
        #expect(written.starts(with: Array(#"{"t_us":0,"ev":"send""#.utf8)))
    }

    @Test("a trace file that cannot be opened is a failure named in the summary, not a trace quietly kept in memory")
    func unopenableFileIsReported() {
        let path = "/nonexistent-\(UUID().uuidString)/trace.jsonl"
        var recorder = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], file: TraceFileWriter(path: path), chunkBytes: 256)
        Self.writeLines(&recorder, count: 10)
        recorder.flush()
        #expect(recorder.bytes.isEmpty)
        #expect(recorder.summary.failure == "cannot open \(path) for writing")
        #expect(recorder.summary.bytes > 0)
    }

    @Test("a copied recorder keeps its own bytes: lines written to one copy are not in the other")
    func copiesAreIndependent() {
        var first = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"], chunkBytes: 1 << 16)
        Self.writeLines(&first, count: 3)
        var second = first
        Self.writeLines(&second, count: 2)
        Self.writeLines(&first, count: 1)
        first.flush(); second.flush()
        var expectedFirst = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"])
        Self.writeLines(&expectedFirst, count: 3); Self.writeLines(&expectedFirst, count: 1); expectedFirst.flush()
        var expectedSecond = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"])
        Self.writeLines(&expectedSecond, count: 3); Self.writeLines(&expectedSecond, count: 2); expectedSecond.flush()
        #expect(first.bytes == expectedFirst.bytes)
        #expect(second.bytes == expectedSecond.bytes)
    }
}

/// The digest of a kept trace is computed as the trace is made, and used only while it describes it.
@Suite("Kept trace digest")
struct KeptTraceDigestTests {
    @Test("a run's kept trace comes with its FNV-1a digest; a replaced trace is hashed again")
    func digestTravelsWithTheTrace() throws {
        var outcome = try Harness.run(EventCapTests.text).outcome
        var hasher = FNV1a64(); hasher.combine(outcome.trace)
        #expect(outcome.traceDigest?.bytes == Int64(outcome.trace.count))
        #expect(outcome.traceDigest?.digest == hasher.value)
        #expect(outcome.digestOfTrace == hasher.value)
        outcome.trace += Array("{}\n".utf8)
        var again = FNV1a64(); again.combine(outcome.trace)
        #expect(outcome.digestOfTrace == again.value)
    }
}

/// A streamed trace file is dropped from the page cache as it grows (`TraceWriteBehind`): the
/// file's bytes stay the trace's, whatever is dropped.
@Suite("Trace write-behind")
struct TraceWriteBehindTests {
    @Test("a trace streamed with its pages dropped a few KB behind the end is the bytes of the same trace kept in memory")
    func droppedPagesKeepTheBytes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-behind-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = TraceFileWriter(path: path, direct: false, writeBehindLagBytes: 8192)
        let (kept, _, file) = TraceBufferTests.keptAndStreamed(count: 3000, chunkBytes: 4096, to: path, through: writer)
        #expect(kept.bytes.count > 100 * 4096)
        #expect(file == kept.bytes)
        #if os(Linux)
        // One drop per chunk once the file is past the lag: the path was taken, many times.
        #expect((writer.pageCacheDrops ?? 0) > 90)
        #endif
    }

    @Test("only a regular file is kept out of the page cache: a device is written as it is")
    func onlyRegularFiles() {
        #if os(Linux)
        #expect(TraceFileWriter(path: "/dev/null").pageCacheDrops == nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-behind-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(TraceFileWriter(path: path, direct: false).pageCacheDrops == 0)
        #endif
    }
}

/// The writer's queue is bounded: the simulation waits for a slot rather than piling up chunks,
/// and written chunks are reused, so a trace of any length lives in a fixed number of chunks.
@Suite("Trace writer bound")
struct TraceWriterBoundTests {
    @Test("a trace of a thousand chunks is written through at most chunksInFlight + 1 chunks")
    func chunksAreBoundedByCount() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-bound-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = TraceFileWriter(path: path)
        let (kept, _, file) = TraceBufferTests.keptAndStreamed(count: 2000, chunkBytes: 1024, to: path, through: writer)
        #expect(kept.bytes.count > 1000 * 1024)
        #expect(file == kept.bytes)
        // The buffer's own chunk, and at most `chunksInFlight` more made while others were queued.
        #expect(writer.chunksMade <= TraceFileWriter.chunksInFlight)
    }
}
