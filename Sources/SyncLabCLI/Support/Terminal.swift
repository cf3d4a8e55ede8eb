#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Whether stderr is a terminal (a progress line then; plain lines in CI), and the core count.
enum Terminal {
    static var isInteractive: Bool { isatty(2) != 0 }
    static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
