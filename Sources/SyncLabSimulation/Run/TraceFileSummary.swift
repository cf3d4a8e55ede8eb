/// What a run streamed to its trace file (`SimulationOptions.traceFile`).
public struct TraceFileSummary: Sendable {
    /// Bytes written.
    public var bytes: Int64
    /// 64-bit FNV-1a of those bytes (the `traceDigest` of SPEC §7 without its prefix).
    public var digest: UInt64
}
