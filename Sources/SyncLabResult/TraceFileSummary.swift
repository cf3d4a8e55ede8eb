/// What a run streamed to its trace file (`SimulationOptions.traceFile`).
public struct TraceFileSummary: Sendable {
    /// Bytes written.
    public var bytes: Int64
    /// 64-bit FNV-1a of those bytes (the `traceDigest` of SPEC §7 without its prefix).
    public var digest: UInt64
    /// Why the file does not hold the whole trace (it could not be opened, or a write failed,
    /// e.g. a full disk); nil when it does. `bytes` and `digest` still describe the whole trace.
    public var failure: String?

    /// A file of `bytes` bytes whose FNV-1a digest is `digest`.
    public init(bytes: Int64, digest: UInt64, failure: String? = nil) { self.bytes = bytes; self.digest = digest; self.failure = failure }
}
