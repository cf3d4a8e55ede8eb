import SyncLabKernel
import SyncLabProtocol

/// The platform's side of a team's records app (a CKSyncEngine delegate) a device hosts.
/// Sans-IO like the engines: the platform calls it synchronously and carries the write ids.
public protocol SyncEngineAppHosting {
    /// The state serialization the app hands the engine when it launches (what it saved).
    var savedState: SyncEngineStateData? { get }
    /// What the app has persisted now (opaque to the platform): given back at the next launch.
    var disk: any Sendable { get }
    /// The device's clock (SPEC §3.2): the platform sets it before every call into the app, which
    /// reads it as `Date()` (a user-side modification date).
    var deviceClock: LocalInstant { get set }
    /// `handleEvent`. `state` is the engine's state: the app may add or remove pending changes.
    mutating func handle(_ event: HostedSyncEvent, state: inout SyncEngineStateData)
    /// `nextRecordZoneChangeBatch` for these pending changes: the records to save (an id the app
    /// gives no record for is skipped), the ids to delete, and whether the batch is atomic by
    /// zone (`atomicByZone`).
    mutating func nextBatch(_ pending: [PendingRecordChangeData], state: inout SyncEngineStateData) -> (saves: [HostedRecord], deletes: [RecordID], atomicByZone: Bool)
    /// The user did `action` through the app.
    mutating func userDid(_ action: HostedUserAction, state: inout SyncEngineStateData)
    /// What the app shows its user, as changes since the last call: nil when nothing changed.
    /// With `full` (the first reading after a launch), every record it shows (`complete`); an
    /// app that cannot tell what changed answers the same way.
    mutating func viewChanges(full: Bool) -> HostedViewChanges?
}
