import Foundation
import SyncLabKernel

/// Streams trace bytes to a file in large writes, keeping the digest and byte count as it goes,
/// so a traced run's memory does not grow with its trace.
final class TraceFileWriter {
    /// The trace's bytes start one write; this many are gathered before each write.
    static let chunkBytes = 1 << 20

    private let handle: FileHandle
    /// 64-bit FNV-1a of everything written so far.
    private(set) var digest = FNV1a64()
    private(set) var bytesWritten: Int64 = 0

    /// Creates (or truncates) the file; nil if it cannot be opened for writing.
    init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { return nil }
        self.handle = handle
    }

    /// Writes the bytes and empties the buffer (its capacity stays, for the next chunk).
    func drain(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        digest.combine(buffer)
        bytesWritten += Int64(buffer.count)
        buffer.withUnsafeBytes { handle.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0.baseAddress!), count: $0.count, deallocator: .none)) }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { try? handle.close() }
}
