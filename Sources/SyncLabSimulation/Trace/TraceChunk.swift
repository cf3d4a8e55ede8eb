/// The memory of a `TraceBuffer`'s chunk: owned here so it is freed with the last buffer using
/// it, and so a copied buffer can tell it shares the chunk (`isKnownUniquelyReferenced`).
/// Sendable because a chunk moves whole: the buffer writing it hands it to the file writer's
/// queue and never touches it again; the queue gives it back only once written.
final class TraceChunk: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    /// A chunk's first byte is aligned to this, so a file written past the page cache can be
    /// written straight from it (`TraceDirectWrite`).
    static let alignmentBytes = TraceDirectWrite.alignmentBytes

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: Self.alignmentBytes).bindMemory(to: UInt8.self, capacity: capacity)
    }

    /// A new chunk of at least `capacity` bytes holding this one's first `count`.
    func copy(count: Int, capacity: Int) -> TraceChunk {
        let chunk = TraceChunk(capacity: Swift.max(capacity, count))
        chunk.base.update(from: base, count: count)
        return chunk
    }

    deinit { UnsafeMutableRawPointer(base).deallocate() }
}
