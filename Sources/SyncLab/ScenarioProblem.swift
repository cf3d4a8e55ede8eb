internal import SyncLabScenario

/// One problem in a scenario: where it is and what was expected (the messages `synclab
/// validate` prints).
public struct ScenarioProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file as given, `(builder)` for a scenario built in Swift, `World` for a world's op.
    public var file: String
    /// 1-based line and column in the file's text, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// The JSON path: `steps[3].device`, `apps.records`.
    public var path: String
    /// What was expected there, and what was found.
    public var message: String

    /// `FILE:LINE:COL: PATH: MESSAGE`.
    public var description: String

    init(_ error: ScenarioError) {
        file = error.file
        line = error.position.map { Int($0.line) }
        column = error.position.map { Int($0.column) }
        path = error.path
        message = error.message
        description = error.description
    }
}

/// Every problem found in a scenario (validation never stops at the first). Nothing ran.
public struct ScenarioLoadError: Error, Sendable, CustomStringConvertible {
    /// Every problem, in the order they occur in the file.
    public var problems: [ScenarioProblem]

    init(_ errors: ScenarioErrors) { problems = errors.errors.map(ScenarioProblem.init) }
    init(problem: ScenarioProblem) { problems = [problem] }
    init(problems: [ScenarioProblem]) { self.problems = problems }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
