/// An append-only table in chunks of 131,072 elements that never move once written: a full chunk
/// stays where it is and the next is reserved whole, so an element is written once. An array
/// grown by doubling copied everything recorded so far into fresh, not yet paged-in memory at
/// each growth: for `FactLog`'s notifications (870,000 at
/// 1,000 devices) a quarter of `bench --check`'s page faults (issue 13, session 10).
/// The first chunk grows as an array does, so a small run takes no more memory than one.
/// The chunk being filled is kept apart from the full ones, so an append writes to one array
/// (one uniqueness check), not to the last element of an array of arrays (issue 13, session 11).
/// Chunks are not advised as transparent huge pages (`madvise(MADV_HUGEPAGE)`): tried in session
/// 10, a third fewer page faults but more system time (2 MB pages zeroed and compacted at fault
/// time), `bench --check` slower by wall clock.
struct ChunkedTable<Element: Sendable>: Sendable {
    /// log2 of the elements in a chunk (131,072: 4 MB of `StoredFact`s).
    static var chunkShift: Int { 17 }
    static var chunkMask: Int { (1 << chunkShift) - 1 }

    /// The full chunks, each of `1 << chunkShift` elements.
    private var full: [[Element]] = []
    /// The chunk being filled (after the full ones).
    private var last: [Element] = []

    /// The elements, chunk by chunk: every chunk but the last holds `1 << chunkShift`.
    var chunks: [[Element]] { last.isEmpty ? full : full + [last] }

    /// How many elements were appended.
    var count: Int { (full.count << Self.chunkShift) + last.count }

    /// The element at `index` (`0..<count`).
    subscript(index: Int) -> Element {
        let chunk = index >> Self.chunkShift
        return chunk < full.count ? full[chunk][index & Self.chunkMask] : last[index & Self.chunkMask]
    }

    /// Puts `element` after the others, in the chunk being filled or, when it is full, a new one.
    mutating func append(_ element: Element) {
        if last.count == Self.chunkMask + 1 {
            var next: [Element] = []
            next.reserveCapacity(Self.chunkMask + 1)
            swap(&next, &last)
            full.append(next)
        }
        last.append(element)
    }
}
