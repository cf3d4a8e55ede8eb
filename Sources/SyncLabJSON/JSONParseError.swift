/// Why a text is not JSON5, and where: the first problem found (parsing stops there).
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var position: SourcePosition
    /// Where in the document, as `steps[3].value`, when the parser knows (a duplicate key); nil
    /// otherwise.
    public var path: String?

    public init(message: String, position: SourcePosition, path: String? = nil) {
        self.message = message; self.position = position; self.path = path
    }

    /// `LINE:COL: MESSAGE`.
    public var description: String { "\(position): \(message)" }
}
