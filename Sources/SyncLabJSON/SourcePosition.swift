/// Where something starts in a text file: 1-based line and column.
///
/// Columns count characters (Unicode scalars), not bytes, so an error under `"é"` points where an
/// editor's cursor would be. A tab counts as one column.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) { self.line = line; self.column = column }

    /// `LINE:COL`, as compilers print it.
    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        lhs.line != rhs.line ? lhs.line < rhs.line : lhs.column < rhs.column
    }
}
