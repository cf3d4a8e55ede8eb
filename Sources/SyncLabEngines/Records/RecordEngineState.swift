import SyncLabProtocol

/// Everything the record engine keeps in durable storage (SPEC §3.2: survives `device.crash`).
///
/// The local record cache, the last server record seen per record (change tags and merge
/// ancestors), the pending queue, the zones with their change tokens, the database token,
/// subscriptions, the cloud's outstanding `retryAfter`, and the request-id counter (engine-made
/// write ids come from the host, `EngineContext.derivedWrites`). Requests in flight,
/// backoff and the fetch phase are volatile: after a crash the queue is simply sent again, and
/// the cloud treats a re-sent write as the same write.
public struct RecordEngineState: Sendable {
    /// The account signed in, or nil when signed out.
    public var account: AccountID?
    /// The last account signed in: the label of records saved while signed out.
    public var lastAccount: AccountID
    public var launchedBefore = false
    /// The local record cache and the last server record seen per record, one slot per record.
    var table = RecordTable()
    /// The local record cache (built from `table` at each use: for tests and inspection).
    public var records: [RecordKey: LocalRecord] {
        get { table.localRecords }
        set { table.localRecords = newValue }
    }
    /// The last server record seen per record (built from `table` at each use: for tests and
    /// inspection).
    public var serverRecords: [RecordKey: ServerRecord] {
        get { table.serverRecords }
        set { table.serverRecords = newValue }
    }
    public var pending: [RecordKey: PendingRecordChange] = [:]
    /// A server version fetched while this device's save of the record was in doubt (so not its
    /// base: `serverRecords` stays as it was): what a rejected creation rolls back to, and what a
    /// save refused with `serverRecordChanged` resolves against (no later fetch brings it again).
    public var fetchedWhileCreating: [RecordKey: ServerRecord] = [:]
    /// Fetched versions held back because they carry writes of a version fetched while this
    /// device's save of another record was in doubt (one atomic call over both records): shown
    /// once no record of their zone is in doubt, so the call is never shown in part.
    public var heldFetched: [RecordKey: ServerRecord] = [:]
    /// Fetched deletions held back like `heldFetched`, with the write that deleted each: a
    /// deletion made by the same write as a held version (an atomic call's delete, a cascade)
    /// shows with it, not before (records seed 7267: the call's deleted record showed gone
    /// while its saved record waited for this device's save in doubt).
    public var heldDeletions: [RecordKey: WriteID] = [:]
    /// A version a save's answer brought with other devices' writes: shown when the next fetch
    /// completes (unless it brought a newer one), so an atomic call it is part of shows whole.
    public var heldUntilFetch: [RecordKey: ServerRecord] = [:]
    /// Zone deletions by other devices waiting for this device's saves in doubt into the zone
    /// (see `HeldZoneDeletion`).
    public var heldZoneDeletions: [ZoneKey: HeldZoneDeletion] = [:]
    /// Records this device removed from its cache by a write (a fetched delete, its own delete),
    /// with the field names it showed removed with them: shown absent by that write until a
    /// sign-out, which drops everything of the account, makes them absent by no write.
    public var shownDeleted: [RecordKey: [String]] = [:]
    public var nextPendingOrder: UInt64 = 0
    /// Per atomic group label (`PendingRecordChange.atomicGroup`), the earlier `records.saveAtomic`
    /// calls joined into it because a later call touched one of their records: the group stands
    /// for all these calls, which go out together in one atomic request.
    public var joinedAtomicCalls: [WriteID: [WriteID]] = [:]
    public var zones: [ZoneKey: LocalZone] = [:]
    public var zoneOperations: [PendingZoneOperation] = []
    public var nextZoneOperationID: UInt64 = 0
    public var databaseToken: DatabaseChangeToken?
    /// Accounts whose private database this device has subscribed to.
    public var subscribedAccounts: [AccountID] = []
    /// The app asked for a public database subscription; `publicSubscribed` once the cloud has it.
    public var publicSubscriptionWanted = false
    public var publicSubscribed = false
    /// The app has saved into the public database: its fetches also query it (the public database
    /// has no change tracking, so a query is how this device learns of others' edits to them).
    public var usesPublicDatabase = false
    /// Per record, the server change tag the app's conflict policy last ran for (a second
    /// `serverRecordChanged` carrying it is not a second conflict). `RecordEngineState.goneTag`
    /// marks a conflict with a deletion.
    public var conflictTags: [RecordKey: UInt64] = [:]
    /// Writes already reported as rejected for the storage quota (reported once, retried quietly).
    public var quotaRejected: Set<WriteID> = []
    public var requestCounter: UInt64 = 0
    /// The cloud's last `retryAfter`: a restarted engine still waits it out before sending.
    public var retryAfter = RetryAfterDeadline()

    static let goneTag = UInt64.max

    public init(account: AccountID?) {
        self.account = account
        self.lastAccount = account ?? AccountID(0)
    }
}
