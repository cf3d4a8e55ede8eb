import SyncLabProtocol

/// One record of what a hosted records app shows its user.
public struct HostedViewRecord: Hashable, Sendable {
    public var id: RecordID
    public var type: String
    public var fields: [String: FieldValue]
    public init(id: RecordID, type: String, fields: [String: FieldValue]) { self.id = id; self.type = type; self.fields = fields }
}
