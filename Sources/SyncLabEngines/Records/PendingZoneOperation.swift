import SyncLabProtocol

/// A zone create or delete not yet acknowledged by the cloud (durable).
public struct PendingZoneOperation: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case create
        case delete(ZoneDeletion)
    }
    /// Unique within the engine, to remove exactly the operations a response acknowledges.
    public var id: UInt64
    public var zone: ZoneKey
    public var kind: Kind
    /// A delete's records this device showed and removed by it (their existence items, in key
    /// order): what it reports discarded if it never reaches the cloud (app deletion, sign-out).
    public var removed: [ItemKey] = []
    /// A delete's record deletes it replaced in the queue (records the device had deleted
    /// before, still pending): reported discarded, each with its own write, with `removed`
    /// (mixed seed 32554: the record delete went unreported and read as a resurrection).
    public var replacedDeletes: [ReplacedRecordDelete] = []
    public init(id: UInt64, zone: ZoneKey, kind: Kind) { self.id = id; self.zone = zone; self.kind = kind }
}
