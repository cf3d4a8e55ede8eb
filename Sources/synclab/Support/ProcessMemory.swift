#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Peak resident memory of this process: the one small platform shim (SPEC §1).
enum ProcessMemory {
    /// Bytes, from `getrusage` (Linux reports kilobytes, macOS bytes).
    static func peakResidentBytes() -> Int64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int64(usage.ru_maxrss)
        #else
        return Int64(usage.ru_maxrss) * 1024
        #endif
    }
}
