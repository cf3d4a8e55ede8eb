#if canImport(Glibc)
import Glibc
#endif

/// An append-only table in chunks of 131,072 elements that never move once written: a full chunk
/// stays where it is and the next is reserved whole (and advised as huge pages on Linux), so an
/// element is written once. An array grown by doubling copied everything recorded so far into
/// fresh, not yet paged-in memory at each growth: for `FactLog`'s notifications (870,000 at
/// 1,000 devices) a quarter of `bench --check`'s page faults (issue 13, session 10).
/// The first chunk grows as an array does, so a small run takes no more memory than one.
struct ChunkedTable<Element: Sendable>: Sendable {
    /// log2 of the elements in a chunk (`FactLog.chunkShift`'s).
    static var chunkShift: Int { 17 }
    static var chunkMask: Int { (1 << chunkShift) - 1 }

    /// The elements, chunk by chunk: every chunk but the last holds `1 << chunkShift`.
    private(set) var chunks: [[Element]] = []
    /// How many elements were appended.
    private(set) var count = 0

    /// The element at `index` (`0..<count`).
    subscript(index: Int) -> Element { chunks[index >> Self.chunkShift][index & Self.chunkMask] }

    /// Puts `element` after the others, in the last chunk or a new one.
    mutating func append(_ element: Element) {
        if count & Self.chunkMask == 0 {
            var chunk: [Element] = []
            if count > 0 {
                chunk.reserveCapacity(Self.chunkMask + 1)
                Self.adviseHugePages(&chunk)
            }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Asks Linux to back a whole reserved chunk with 2 MB pages as it is written: with 4 KB
    /// pages, filling a chunk is a page fault every 4 KB (issue 13, session 10). Only a hint
    /// (`transparent_hugepage` `madvise` or `always`); elsewhere nothing. Contents do not depend on it.
    static func adviseHugePages<Item>(_ chunk: inout [Item]) {
        #if canImport(Glibc)
        let bytes = chunk.capacity * MemoryLayout<Item>.stride
        chunk.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let page = 4096
            let start = Int(bitPattern: base) & ~(page - 1)
            let end = (Int(bitPattern: base) + bytes + page - 1) & ~(page - 1)
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, Int32(MADV_HUGEPAGE))
        }
        #endif
    }
}
