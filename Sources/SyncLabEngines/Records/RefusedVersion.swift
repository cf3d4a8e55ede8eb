import SyncLabProtocol

/// The server version a save refused with `serverRecordChanged` carried, kept while the save
/// waits for a fetch to bring that version (`RecordEngine.refusedVersions`).
struct RefusedVersion: Sendable {
    var server: ServerRecord
    /// The engine's request counter at the refusal: only a fetch started after it answers it.
    var requestCounter: UInt64
    /// The zone's deletion count at the refusal (`RecordEngine.zoneDeletedAt`): a version of a
    /// zone deleted since is never resolved against.
    var zoneDeletions: UInt64
    /// `RecordEngine.accountEpoch` at the refusal: never resolved against in another account
    /// (records seed 4122: shown in the account switched to).
    var accountEpoch: UInt64
}
