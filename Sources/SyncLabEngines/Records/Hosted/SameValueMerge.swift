import SyncLabKernel
import SyncLabProtocol

/// A record field both sides changed to the same value in a conflict the hosted app was shown:
/// the value the app shows is one merged write descending from both edits, as the built-in
/// engine's `merge` makes it (SPEC §9: the platform, not the app, knows write ids). Remembered
/// until the cloud carries the merged write, so a version the cloud shows again with one of
/// the parents (a later fetch, a `serverRecordChanged`) does not take the merge's place.
struct SameValueMerge: Sendable {
    /// The merged write.
    var write: WriteID
    /// The two edits it descends from, sorted.
    var parents: [WriteID]
    /// The later of the two edits' times.
    var modifiedAt: LocalInstant
}
