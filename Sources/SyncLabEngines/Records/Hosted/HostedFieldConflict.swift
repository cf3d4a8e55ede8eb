import SyncLabProtocol

/// A record field both sides changed in a `serverRecordChanged` the hosted app was shown: this
/// device's unsent edit and the server's. Once the app has answered, the write the field then
/// carries in what the app shows says which one it kept (SPEC §9: the platform, not the app,
/// knows write ids).
struct HostedFieldConflict: Sendable {
    /// The field's item.
    var item: ItemKey
    /// This device's edit the app sent.
    var ours: StoredField
    /// The server's edit since the ancestor.
    var theirs: StoredField
}
