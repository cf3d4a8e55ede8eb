import SyncLabJSON

/// One problem in a scenario file: where it is and what was expected (SPEC §5).
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// The path as given.
    public var file: String
    /// Where the offending value (or key) starts; nil when there is none (an unreadable file).
    public var position: SourcePosition?
    /// The JSON path: `steps[3].device`, `devices[1].clock.offset`, or `(root)`.
    public var path: String
    public var message: String

    public init(file: String, position: SourcePosition?, path: String, message: String) {
        self.file = file; self.position = position; self.path = path; self.message = message
    }

    /// `FILE:LINE:COL: PATH: MESSAGE` (without `LINE:COL:` when the position is unknown), on
    /// one line: control characters and bidi controls of user strings in it are escaped
    /// (`TerminalText`), so a key or id holding `\n::error` cannot forge a CI log line.
    public var description: String {
        if let position {
            return TerminalText.escape("\(file):\(position.line):\(position.column): \(path): \(message)")
        }
        return TerminalText.escape("\(file): \(path): \(message)")
    }
}
