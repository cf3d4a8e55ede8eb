/// `RunResult.writeReports(to:)` could not write its files: which folder, and why in plain words.
public struct ReportWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The folder the reports were to go to, as given.
    public var folder: String
    /// Why, in words: the system's reason ("Permission denied"), or "PATH is a file, not a folder".
    public var reason: String

    /// `cannot write reports to FOLDER: REASON`.
    public var description: String { "cannot write reports to \(folder): \(reason)" }
}
