import Foundation

/// Output streams for the CLI. Errors go to stderr (SPEC §7).
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Exit statuses (SPEC §7).
enum ExitStatus: Int32 {
    case success = 0
    case failed = 1
    case badInput = 2
}
