/// What a run streamed to its trace file (`SimulationOptions.traceFile`).
public struct TraceFileSummary: Sendable {
    /// Bytes written.
    public var bytes: Int64
    /// 64-bit FNV-1a of those bytes (the `traceDigest` of SPEC §7 without its prefix).
    public var digest: UInt64

    /// A file of `bytes` bytes whose FNV-1a digest is `digest`.
    public init(bytes: Int64, digest: UInt64) { self.bytes = bytes; self.digest = digest }
}
