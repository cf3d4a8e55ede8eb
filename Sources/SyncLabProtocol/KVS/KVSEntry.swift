/// One key of an app call as it travels to the cloud: a new value, or a removal.
public struct KVSEntry: Hashable, Sendable {
    public var key: String
    /// The new value; nil removes the key (`kvs.remove`).
    public var value: PlistValue?

    public init(key: String, value: PlistValue?) { self.key = key; self.value = value }
}
