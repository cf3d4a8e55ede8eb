import SyncLabProtocol

/// A record delete still pending when the app deleted the record's zone: the zone delete took
/// its place in the queue (the zone's pending changes go), so the zone delete carries it, to
/// report it discarded with its own write if the zone delete never reaches the cloud.
public struct ReplacedRecordDelete: Hashable, Sendable {
    /// The record delete's write.
    public var write: WriteID
    public var key: RecordKey
    /// The fields the delete removed on this device.
    public var removedFields: [String]

    public init(write: WriteID, key: RecordKey, removedFields: [String]) {
        self.write = write; self.key = key; self.removedFields = removedFields
    }
}
