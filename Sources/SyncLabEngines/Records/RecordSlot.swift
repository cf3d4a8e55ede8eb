import SyncLabProtocol

/// What a device keeps of one record in `RecordTable`: its local copy (what the app sees) and the
/// last server version it knows (its base), side by side.
struct RecordSlot: Sendable {
    var local: LocalRecord?
    var server: ServerRecord?

    /// Neither part: the slot goes from the table.
    var isEmpty: Bool { local == nil && server == nil }
}
