import SyncLabKernel

/// `{"t_us":DIGITS`, the start of every trace line, kept for the last time written: lines come
/// in runs at one instant (a push reaches a thousand devices at once, each device's response
/// is a send, a receive, a log and a few observations), so most lines copy the last line's
/// 32 bytes as four words instead of counting and writing the digits again.
struct TraceTimePrefix {
    /// The time the words spell.
    private var microseconds: Int64 = 0
    /// `{"t_us":` (8 bytes) and at most 20 more (a sign and 19 digits), zero-padded to 32.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0

    init() { spell(0) }

    /// Bytes `write` may store (it stores all 32, and moves the cursor by the prefix's length).
    static let reservedBytes = 32

    /// Writes the prefix for `time` at `target` (32 bytes of room); returns the position after it.
    @inline(__always) mutating func write(_ time: Int64, to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(time != microseconds) { spell(time) }
        let raw = UnsafeMutableRawPointer(target)
        raw.storeBytes(of: words.0, as: UInt64.self)
        raw.storeBytes(of: words.1, toByteOffset: 8, as: UInt64.self)
        raw.storeBytes(of: words.2, toByteOffset: 16, as: UInt64.self)
        raw.storeBytes(of: words.3, toByteOffset: 24, as: UInt64.self)
        return target + count
    }

    @inline(never) private mutating func spell(_ time: Int64) {
        microseconds = time
        words = (0, 0, 0, 0)
        count = withUnsafeMutableBytes(of: &words) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let end = TraceBuffer.decimal(time, to: TraceBuffer.copy(#"{"t_us":"#, to: base))
            return end - base
        }
    }
}
