/// A value and where it starts in the file (its first character).
public struct JSONNode: Sendable {
    public var value: JSONValue
    public var position: SourcePosition

    public init(value: JSONValue, position: SourcePosition) { self.value = value; self.position = position }

    /// The members when this is an object, else nil.
    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The first member named `key` when this is an object (keys are unique after parsing).
    public subscript(key: String) -> JSONNode? {
        members?.first(where: { $0.key == key })?.value
    }
}
