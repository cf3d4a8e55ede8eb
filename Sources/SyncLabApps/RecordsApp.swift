/// A team's records code on one virtual device (SPEC §9): its `CKSyncEngineDelegate` and the
/// local database it keeps. Port it mechanically: `handleEvent(_:syncEngine:)` and
/// `nextRecordZoneChangeBatch(_:syncEngine:)` are Apple's delegate methods (synchronous here),
/// `syncEngine.state` is `CKSyncEngine.State`.
///
/// Storage is explicit: the app is made at each launch (install, restart after a crash) from
/// what it persisted — its `disk`, read by the platform when the device crashes (what it held
/// after the app's last call) — and the engine starts from the state serialization the app
/// hands it (`stateSerialization`, as `CKSyncEngine.Configuration(stateSerialization:)`). Anything not in `disk` is lost at a crash;
/// so is a pending change added after the last serialization the app saved.
///
/// Scenario user ops (`record.save`, `record.delete`, `zone.create`, `zone.delete`) reach the app
/// as `userDid(_:syncEngine:)`: the user did this through its UI. What the app shows its user
/// (`userSees`) is what asserts, `final`, the divergence check and the timeline read.
///
/// Write ids are the platform's: a field value the app shows or sends that it was shown (fetched,
/// saved, in a failure, or typed by the user) keeps that value's write; any other value is the
/// app's own write, built on what it had seen there.
public protocol RecordsApp: SendableMetatype {
    /// What the app persists (its local database, the serialization it saved…).
    associatedtype Disk: Sendable

    /// The app launches with what it had persisted (nil: first launch after install).
    init(disk: Disk?)

    /// What the app has persisted now.
    var disk: Disk { get }

    /// The state serialization the app hands the engine at launch (the last one it saved).
    var stateSerialization: SyncEngine.State.Serialization? { get }

    /// `handleEvent(_:syncEngine:)`.
    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine)

    /// `nextRecordZoneChangeBatch(_:syncEngine:)`: the records for the pending changes of
    /// `context`; nil sends nothing.
    mutating func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch?

    /// The user did `action` through the app's UI.
    mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine)

    /// What the user sees now: every record the app shows (private database), by id. Read after
    /// every call into the app; keep it as a stored `SyncRecordStore` (your local database's
    /// own, changed in place) so a call costs the records it changed, not every record shown.
    var userSees: SyncRecordStore { get }
}

extension RecordsApp where Disk == Self {
    /// An app whose whole value is what it persists (its records and the state serialization it
    /// saved): every field of it survives a crash.
    public var disk: Self { self }
}
