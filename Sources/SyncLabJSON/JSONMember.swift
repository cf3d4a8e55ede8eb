/// One `key: value` of an object, with the key's own position (for "unknown key" messages).
public struct JSONMember: Sendable {
    public var key: String
    public var keyPosition: SourcePosition
    public var value: JSONNode

    public init(key: String, keyPosition: SourcePosition, value: JSONNode) {
        self.key = key; self.keyPosition = keyPosition; self.value = value
    }
}
