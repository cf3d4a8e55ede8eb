/// Why a text is not JSON5, and where: the first problem found (parsing stops there).
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var position: SourcePosition

    public init(message: String, position: SourcePosition) { self.message = message; self.position = position }

    /// `LINE:COL: MESSAGE`.
    public var description: String { "\(position): \(message)" }
}
