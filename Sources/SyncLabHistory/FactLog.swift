/// The facts of a run, in the order reported (`History.facts`): an array that never moves what
/// it already holds.
///
/// One `[FactRecord]` grew by doubling, and each growth copied every fact recorded so far into
/// a fresh, not yet paged-in buffer: at 1,000 devices (2.6 M facts, some 140 bytes each) that
/// `memmove` and its page faults were a tenth of `bench --check`'s CPU and most of its peak
/// memory (issue 13, `--check`, session 8). Here the facts go into chunks of a fixed size: a
/// full chunk stays where it is and the next one is reserved whole, so a fact is written once.
/// The first chunk grows as an array does, so a small run takes no more memory than before.
public struct FactLog: RandomAccessCollection, Sendable {
    /// log2 of the facts in a chunk (65,536: some 9 MB).
    @usableFromInline static let chunkShift = 16
    @usableFromInline static let chunkMask = (1 << chunkShift) - 1

    /// The facts, chunk by chunk: every chunk but the last holds `1 << chunkShift` facts. The
    /// checker's scan reads them chunk by chunk, an array at a time.
    public private(set) var chunks: [[FactRecord]] = []
    /// How many facts were recorded.
    public private(set) var count = 0

    /// No facts.
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> FactRecord {
        precondition(position >= 0 && position < count, "FactLog: index \(position) out of 0..<\(count)")
        return chunks[position >> FactLog.chunkShift][position & FactLog.chunkMask]
    }

    /// Records one fact after the others.
    public mutating func append(_ fact: FactRecord) {
        if count & FactLog.chunkMask == 0 {
            var chunk: [FactRecord] = []
            if count > 0 { chunk.reserveCapacity(FactLog.chunkMask + 1) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(fact)
        count += 1
    }
}
