/// An append-only table in chunks of 131,072 elements that never move once written: a full chunk
/// stays where it is and the next is reserved whole, so an element is written once. An array
/// grown by doubling copied everything recorded so far into fresh, not yet paged-in memory at
/// each growth: for `FactLog`'s notifications (870,000 at
/// 1,000 devices) a quarter of `bench --check`'s page faults (issue 13, session 10).
/// The first chunk grows as an array does, so a small run takes no more memory than one.
/// Chunks are not advised as transparent huge pages (`madvise(MADV_HUGEPAGE)`): tried in session
/// 10, a third fewer page faults but more system time (2 MB pages zeroed and compacted at fault
/// time), `bench --check` slower by wall clock.
struct ChunkedTable<Element: Sendable>: Sendable {
    /// log2 of the elements in a chunk (131,072: 6 MB of `StoredFact`s, 4 MB of notifications).
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
            if count > 0 { chunk.reserveCapacity(Self.chunkMask + 1) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}
