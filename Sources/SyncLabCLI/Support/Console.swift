import Foundation
import SyncLabJSON

/// Output streams for the CLI. Errors go to stderr (SPEC §7).
///
/// Everything printed passes `TerminalText.escape` (line breaks kept): a control character or
/// bidi control in a user string can neither drive the terminal nor forge a CI log line. Text
/// whose user strings may hold a newline escapes them line by line first (`TextSummary`,
/// `ScenarioError.description`).
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalText.escape(text, keepingNewlines: true) + "\n").utf8))
    }
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escape(text, keepingNewlines: true) + "\n").utf8))
    }
}

/// Exit statuses (SPEC §7).
enum ExitStatus: Int32 {
    case success = 0
    case failed = 1
    case badInput = 2
}
