import Foundation
import SyncLabKernel

/// Streams trace bytes to a file in large writes, keeping the digest and byte count as it goes,
/// so a traced run's memory does not grow with its trace.
final class TraceFileWriter {
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

    /// Hashes and writes one chunk of the trace.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        digest.combine(bytes)
        bytesWritten += Int64(bytes.count)
        handle.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: bytes.count, deallocator: .none))
    }

    deinit { try? handle.close() }
}
