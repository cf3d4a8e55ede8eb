import SyncLabKernel
import SyncLabProtocol

/// A CKSyncEngine-like client engine for the Records service (SPEC §4.3), sans-IO.
///
/// App calls change the local record cache at once (durably) and queue pending changes; the
/// engine sends them as soon as it is online and not already sending, in batches within the
/// request limits, and fetches changes with change tokens on launch, foreground, reconnect and
/// push. `serverRecordChanged` and fetched changes that meet pending local changes run the app's
/// conflict policy (`serverWins`, `clientWins`, `merge`).
///
/// Timers: kind 1 is the retry timer (backoff, `retryAfter`); kind 2 the periodic re-check of
/// changes blocked on the storage quota.
public struct RecordEngine: ClientEngine {
    public typealias Durable = RecordEngineState

    /// A request this engine is waiting on, and the account epoch it was sent in.
    enum InFlight: Sendable {
        case zones(operationIDs: [UInt64])
        case records(SentBatch)
        case databaseChanges
        case zoneChanges
        case query
        case subscribe(DatabaseScope)
    }

    /// What one modify request carried, to match the per-item results.
    struct SentBatch: Sendable {
        var database: DatabaseScope
        /// Per save: the record and the write id of each field sent.
        var saves: [(key: RecordKey, fields: [String: WriteID])]
        var deletes: [(key: RecordKey, write: WriteID)]
        var atomic: Bool
        /// `RecordEngine.zoneDeletions` when the request left: a result for a zone this device
        /// learnt deleted since is about records that went with the zone.
        var zoneDeletionsBefore: UInt64 = 0
        var itemCount: Int { saves.count + deletes.count }
    }

    /// Where the fetch cycle is.
    enum FetchPhase: Sendable {
        /// No fetch running.
        case idle
        /// Waiting for database changes (zones changed or deleted).
        case databaseChanges
        /// Waiting for the changed zones' record changes.
        case zoneChanges
        /// Waiting for the public database query.
        case query
    }

    /// Timer kinds this engine sets (the raw values are what the trace shows).
    enum TimerKind: UInt8 {
        /// The backoff (or the cloud's `retryAfter`) after a failed request.
        case retry = 1
        /// The periodic re-check of changes the quota refused.
        case quota = 2
    }
    static let retryTimer = EngineTimer(TimerKind.retry)
    static let quotaTimer = EngineTimer(TimerKind.quota)
    /// How often changes blocked on the quota are tried again (a periodic timer: not work).
    static let quotaRecheck = SimDuration.minutes(5)

    let identity: EngineIdentity
    var state: RecordEngineState

    // Volatile: lost on crash.
    var online = true
    /// The requests sent and not answered (each gets exactly one answer): a few at a time (a
    /// send, a fetch, a subscription), so an array searched by id, not a dictionary that hashed
    /// the id with SipHash at every send and answer (1.8% of the records bench).
    var inFlight: [(id: UInt64, request: InFlight, epoch: UInt64)] = []
    /// Bumped at every account change: answers to requests of an earlier account are ignored.
    var accountEpoch: UInt64 = 0
    var fetchPhase: FetchPhase = .idle
    var wantFetch = false
    var fetchAgain = false
    var sending = false
    var subscribing = false
    var sentSinceIdle = false
    var retryArmed = false
    var backoff = RetryBackoff()
    /// Items per modify request; halved when the cloud says `limitExceeded` for a request.
    var batchCap: Int
    var bytesCap: Int
    /// Item names the current fetch cycle changed, for the app's "fetched" notification.
    var fetchedItems: [String] = []
    /// Records whose save met `serverRecordChanged` in a custom zone: they wait for the next fetch,
    /// which brings the server version together with the rest of the call that wrote it (the
    /// conflict is resolved there), before they go out again.
    var awaitingFetch: Set<RecordKey> = []
    /// The version each of those refusals carried. A fetch started after the refusal that did
    /// not bring a version as new never will (the device's change token was already past it):
    /// the conflict is resolved against the refused version then, rather than re-sending the
    /// save on the same base and waiting again (records seed 8349 before eca2467: 15,373
    /// re-sends, one every 0.2 s, for an hour of simulated time). Also the version a refusal
    /// carried for a record whose save the same answer took back (nothing left to resolve): it is
    /// shown by the next fetch, or then, never alone before it.
    var refusedVersions: [RecordKey: RefusedVersion] = [:]
    /// Records whose save or delete the cloud answered while a zone fetch or query was on the
    /// wire. With reordering the fetch may have been answered before that change, so its reply
    /// can be older than what the device already knows: it must not undo these records, and a
    /// fresh fetch follows (SPEC §3.3 `reorder`).
    var answeredDuringFetch: Set<RecordKey> = []
    /// Zones whose creation the cloud answered while a database-changes or zone-changes fetch
    /// was on the wire: that fetch's answer may predate the creation, so a deletion of such a
    /// zone in it (or a zone-changes answer that the zone is missing or deleted) is not applied;
    /// the zone is fetched again instead, and that fetch says whether it is gone (mixed seed
    /// 8982: a user's deletion from before this device created the zone again dropped the new
    /// zone's record here; mixed seed 17248, the same with `zoneNotFound`).
    var zonesCreatedDuringFetch: Set<ZoneKey> = []
    /// Zone deletions this device has applied (its own, another device's, the user's), and per
    /// zone the count at its last one: an answer to a request sent before a zone's deletion was
    /// applied here speaks of the deleted zone's records, never of what this device now has
    /// there (records seed 5458: a save applied just before the user deleted the zone was
    /// answered after, and brought the record back on this device alone).
    var zoneDeletions: UInt64 = 0
    var zoneDeletedAt: [ZoneKey: UInt64] = [:]
    /// Request ids of the last private subscription request and of the last fetch cycle's first
    /// request: a subscription confirmed with no fetch sent after it is followed by one.
    var privateSubscribeRequest: UInt64 = 0
    var fetchStartRequest: UInt64 = 0
    /// The first request of the fetch cycle whose database changes were answered last: on a link
    /// that reorders, a cycle begun after the subscription request can be answered before it.
    var databaseChangesAnsweredCycle: UInt64 = 0

    public var durable: RecordEngineState { state }

    public init(identity: EngineIdentity, account: AccountID?, recovering durable: RecordEngineState?, requestIDsAfter: UInt64) {
        self.identity = identity
        self.state = durable ?? RecordEngineState(account: account)
        state.requestCounter = max(state.requestCounter, requestIDsAfter)
        self.batchCap = max(1, identity.limits.records.batch)
        self.bytesCap = max(1, identity.limits.records.requestBytes)
    }

    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {
        switch event {
        case .launched:
            state.launchedBefore = true
            wantFetch = true
            // A restart after a throttle still owes the cloud the rest of its `retryAfter`.
            honourRetryAfter(&context)
            pump(&context)
        case .foreground:
            // The app asks now: the fetch does not wait out the backoff (but still a `retryAfter`).
            state.retryAfter.stopWaitingOutBackoff(armed: &retryArmed, timer: RecordEngine.retryTimer, &context)
            wantFetch = true
            pump(&context)
        case .connectivity(let isOnline):
            online = isOnline
            if isOnline {
                backoff.reset()
                if retryArmed {
                    retryArmed = false
                    context.emit(.cancelTimer(RecordEngine.retryTimer))
                }
                // Backoff starts afresh, but a `retryAfter` the cloud gave still holds.
                honourRetryAfter(&context)
                wantFetch = true
                pump(&context)
            }
        case .response(let envelope):
            handleResponse(envelope, &context)
        case .push(let push):
            if push.account == state.account || (push.account == .publicDatabase && state.publicSubscribed) {
                wantFetch = true
                // Something changed in the cloud: space may have freed for blocked changes.
                if push.account == state.account { unblockQuota() }
                pump(&context)
            }
        case .timer(let timer):
            switch timer.kind(as: TimerKind.self) {
            case .retry:
                retryArmed = false
                state.retryAfter.clear()
                pump(&context)
            case .quota:
                unblockQuota()
                pump(&context)
            case nil:
                break // a timer of a kind this engine never sets: nothing to do
            }
        case .signedIn(let account):
            signIn(account, &context)
        case .signedOut:
            signOut(&context)
        }
    }

    /// False while there is work the engine could do now: a request in flight, a fetch or a
    /// subscription wanted, a retry timer pending, or changes it can send. Changes blocked on the
    /// quota or on a zone the user deleted, and anything while offline or signed out, do not count.
    public var isQuiescent: Bool {
        if !inFlight.isEmpty { return false }
        guard online, state.account != nil else { return true }
        if retryArmed || wantFetch || wantsPrivateSubscription || wantsPublicSubscription { return false }
        return !hasSendableWork
    }

    /// `isQuiescent` for a host holding the engine in place (the simulator, after every
    /// delivery). The getter, called there, was given a 488-byte copy of the engine (every cache
    /// line of it), and so was anything calling it on `self` from a mutating method, inlined or
    /// not: here the fields are read where they are, in the getter's order, and the getter runs
    /// only with changes pending, to list what is sendable (issue 13, session 11).
    public mutating func isQuiescentInPlace() -> Bool {
        if !inFlight.isEmpty { return false }
        guard online, let account = state.account else { return true }
        if retryArmed || wantFetch { return false }
        if !state.subscribedAccounts.contains(account) { return false }
        if state.publicSubscriptionWanted && !state.publicSubscribed { return false }
        if !state.zoneOperations.isEmpty { return false }
        if state.pending.isEmpty { return true }
        return isQuiescent
    }

    /// What the app sees: per record an existence item and one item per field, sorted.
    public func localView() -> [ViewEntry] {
        var view: [ViewEntry] = []
        for key in state.table.localKeys.sorted() {
            let record = state.table[local: key]!
            view.append(ViewEntry(item: item(key), value: .recordExists(type: record.type), write: record.existenceWrite))
            for name in record.fieldNames {
                guard let field = record.fields[name], let value = field.value else { continue }
                view.append(ViewEntry(item: item(key, field: name), value: .field(value), write: field.write))
            }
        }
        return view.sorted { $0.item < $1.item }
    }

    /// Changes accepted locally and not acknowledged, in the order made: per pending record, the
    /// creation (existence item), each changed field, or the delete.
    public func pendingWrites() -> [(WriteID, ItemKey)] {
        orderedPendingKeys().flatMap { pendingWrites(of: $0) } + pendingZoneDeletes(in: nil)
    }

    /// What this device shows absent by its pending deletes of a database (nil: every database):
    /// each record and the fields the delete removed here, in queue order (then those of record
    /// deletes a queued zone delete replaced). When those deletes are
    /// discarded (sign-out, an account switch, app deletion) these are shown absent by no write.
    public func itemsRemovedByPendingDeletes(in database: DatabaseScope?) -> [ItemKey] {
        var result: [ItemKey] = []
        for key in orderedPendingKeys() where database == nil || key.database == database {
            guard let change = state.pending[key], case .delete = change.kind, state.table[local: key] == nil else { continue }
            for name in change.removedFields { result.append(item(key, field: name)) }
            result.append(item(key))
        }
        for operation in state.zoneOperations where database == nil || operation.zone.database == database {
            // Record deletes a zone delete replaced, unless the record is back here since.
            for replaced in operation.replacedDeletes where state.table[local: replaced.key] == nil {
                for name in replaced.removedFields { result.append(item(replaced.key, field: name)) }
                result.append(item(replaced.key))
            }
        }
        return result
    }

    /// The queued zone deletes of a database (nil: every database), each with the records it
    /// removed on this device: lost with the queue if it never reaches the cloud.
    func pendingZoneDeletes(in database: DatabaseScope?) -> [(WriteID, ItemKey)] {
        var result: [(WriteID, ItemKey)] = []
        for operation in state.zoneOperations where database == nil || operation.zone.database == database {
            guard case .delete(let deletion) = operation.kind else { continue }
            for removed in operation.removed { result.append((deletion.write, removed)) }
            for replaced in operation.replacedDeletes { result.append((replaced.write, item(replaced.key))) }
        }
        return result
    }
}
