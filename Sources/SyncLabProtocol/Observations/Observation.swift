/// A fact an engine or the cloud reports for the checker (SPEC §6). The simulator stamps each
/// with the device (for engine observations), the true time and the local time.
///
/// The checker judges only from these, the user operations the simulator ran, and the final
/// cloud state; it never looks inside an engine.
public enum Observation: Sendable {
    /// What the app sees for `item` is now `write`'s value (`value`); `write == nil` means the item
    /// is absent with no write behind it (e.g. data dropped at sign-out).
    case visible(item: ItemKey, value: ItemValue, write: WriteID?, cause: VisibilityCause)
    /// An engine made a write of its own (merge result, conflict copy, resolution). `parents` are
    /// the writes it was built on (a merge lists every merged version).
    case derivedWrite(write: WriteID, item: ItemKey, value: ItemValue, parents: [WriteID], why: String)
    /// The cloud detected a conflict (counts toward `conflicts`), between these writes.
    case conflictDetected(item: ItemKey, writes: [WriteID], detail: String)
    /// The app was shown a conflict over these writes (a device saw its document `inConflict`,
    /// or an engine ran the app's record policy). `resolvedBy` is the policy that settled it,
    /// nil when none ran (an unconditional delete, a re-upload as a new record).
    case conflictShown(item: ItemKey, writes: [WriteID], detail: String, resolvedBy: ConflictResolver? = nil)
    /// A write was rejected and the app was told (`error` names the error, `limit` the limit for
    /// quota errors, e.g. `kvs.totalBytes`).
    case rejected(write: WriteID, item: ItemKey, error: String, limit: String?)
    /// A last-writer-wins comparison chose `chosen` over `over` (KVS timestamps, document
    /// modification dates, per-field merges): the checker checks it against causality.
    case lastWriterWins(item: ItemKey, chosen: WriteID, over: WriteID, rule: String)
    /// A pending change was discarded without reaching the cloud (sign-out, app deletion, account switch).
    case discarded(write: WriteID, item: ItemKey, reason: String)
    /// A free-form engine remark for the trace; the checker ignores it.
    case note(String)
}

/// Why what an app sees changed.
public enum VisibilityCause: String, Hashable, Sendable {
    /// The app's own write on this device.
    case local
    /// A value fetched from the cloud (push, foreground, reconnect, launch).
    case fetch
    /// A local write undone because the cloud rejected it (e.g. a KVS quota broken in the cloud).
    case rollback
    /// The engine resolved a conflict or merged.
    case resolution
    /// Data dropped or replaced at sign-out, sign-in to another account, app deletion or a zone deleted by the user.
    case reset
}
