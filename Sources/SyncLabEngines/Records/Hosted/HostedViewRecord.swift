import SyncLabProtocol

/// One record of what a hosted records app shows its user.
public struct HostedViewRecord: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    public var fields: [String: FieldValue]
    /// The change tag of the server version the record descends from (nil: one the app made,
    /// never saved): a record the app made shows its own existence, not another device's
    /// creation of the same name the cloud told it of.
    public var changeTag: UInt64?
    public init(id: RecordID, type: String, fields: [String: FieldValue], changeTag: UInt64? = nil) {
        self.id = id; self.type = type; self.fields = fields; self.changeTag = changeTag
    }
}
