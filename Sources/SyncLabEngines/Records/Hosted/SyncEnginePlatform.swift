import SyncLabKernel
import SyncLabProtocol

/// The platform side of a device that hosts a team's records app (SPEC §9): Apple's CKSyncEngine
/// and CKDatabase, sans-IO. It keeps the pending-changes state, change tokens and subscription,
/// sends and fetches, retries with backoff (never before a `retryAfter`), and hands every answer
/// to the app as `CKSyncEngine` events; the app keeps its own local database and decides every
/// conflict. The engine's state survives a crash only as the serialization the app saved.
///
/// Write ids are the platform's (`RecordLabels`): after every call into the app it reads what
/// the app shows and reports each change with the write behind the value (a value the app was
/// shown keeps its write; a new one is the device's own write `DEVICE:mN`, built on what the app
/// had seen there), and labels the fields of every record the app sends the same way.
///
/// Private database only, as a `CKSyncEngine` is configured for one database.
public struct SyncEnginePlatform: Sendable {
    /// A request this engine waits on.
    enum Request: Sendable {
        case zones([PendingZoneChangeData])
        /// Zones the user deleted in Settings (not the app's changes).
        case settingsDeletes([ZoneDeletion])
        case records(saves: [RecordSave], deletes: [RecordDeletion])
        case databaseChanges
        case zoneChanges
        case subscribe
    }

    enum TimerKind: UInt8 {
        /// Backoff (or the cloud's `retryAfter`) after a failed request.
        case retry = 1
    }
    static let retryTimer = EngineTimer(TimerKind.retry)

    let identity: EngineIdentity
    /// The live state (`CKSyncEngine.State`): volatile; the app saves it from `stateUpdate`.
    public internal(set) var state: SyncEngineStateData
    /// Write-id memory: durable with the device (see `RecordLabels`).
    public internal(set) var labels: RecordLabels
    /// The device's account (nil: signed out) and the last one signed in (labels items meanwhile).
    var account: AccountID?
    var lastAccount: AccountID

    // Volatile.
    var online = true
    var inFlight: [UInt64: (request: Request, epoch: UInt64)] = [:]
    var accountEpoch: UInt64 = 0
    var requestCounter: UInt64
    var fetching = false
    var wantFetch = false
    var fetchAgain = false
    var sending = false
    var subscribing = false
    var sentSinceIdle = false
    var retryArmed = false
    var backoff = RetryBackoff()
    var retryAfter = RetryAfterDeadline()
    var batchCap: Int
    /// Records a re-sent delete found made again since it was applied (`deletedBefore`): the
    /// app was told of the delete, and hears of the record with the next fetch that starts after
    /// (`heldForFetch`), unless that fetch names it itself (a fetch brings an atomic call whole).
    var heldAfterDelete: [RecordID: ServerRecord] = [:]
    var heldForFetch: [RecordID: ServerRecord] = [:]
    /// The request id of the atomic records request on the wire (nil: none): refused for its
    /// size, it cannot be split.
    var atomicSend: UInt64?
    var bytesCap: Int
    /// The app gave no record for any pending change: nothing is sent until the state changes.
    var sendBlocked = false
    /// Pending changes the app added again while they were on the wire: a success keeps them.
    var readded: Set<PendingRecordChangeData> = []
    /// The view was read since launch or the last account change (false: the next reading
    /// compares everything). What the app showed at the last reading is the labels' views.
    var viewRead = false
    /// Records the current fetch cycle told the app of, for the `fetched` notification.
    var fetchedNames: [String] = []
    /// The state changed since the app was last told (`stateUpdate`).
    var stateDirty = false
    /// Edits the app showed before the crash that never reached the cloud and that the state it
    /// handed back holds no pending save for: taken at `init`, before any reading of the new
    /// app's view (which may not show them any more), and reported at `.launched`.
    var forgottenAtLaunch: [(key: ItemKey, write: WriteID)] = []
    /// During a user's action: each item of the view it changed, with what it showed before.
    var viewJournal: [ItemKey: RecordLabels.Labeled?]?
    /// Fields both sides changed in conflicts the app was shown: what it kept is read with its
    /// view at the end of the step (`reportKeptWrites`), or later if it has not answered yet.
    var fieldConflicts: [HostedFieldConflict] = []
    /// Fields both sides changed to the same value, noted while a server version is being
    /// shown: merged (`mergeSameValues`) once the app has been shown that version.
    var sameValueConflicts: [HostedFieldConflict] = []
    /// The request ids of the last subscription request and of the last fetch cycle's first
    /// request: a fetch sent after the subscription request needs no second fetch once it is made.
    var subscribeRequest: UInt64 = 0
    var fetchStartRequest: UInt64 = 0
    /// Records whose `serverRecordChanged` the app was told of and that it has not sent again
    /// since: it may be settling them (a fetched version of one meets its unsent edits as a
    /// pending save's does).
    var conflictsUnanswered: Set<RecordID> = []

    /// A platform engine at launch, from the serialization the app hands it (nil, or one of another
    /// account: from scratch), with the device's label memory (nil: a fresh install).
    public init(identity: EngineIdentity, account: AccountID?, lastAccount: AccountID, savedState: SyncEngineStateData?, labels: RecordLabels?, requestIDsAfter: UInt64) {
        self.identity = identity
        self.account = account
        self.lastAccount = lastAccount
        if let savedState, savedState.account == account {
            state = savedState
        } else {
            state = SyncEngineStateData(account: account)
        }
        state.readded = []
        self.labels = labels ?? RecordLabels()
        requestCounter = requestIDsAfter
        batchCap = max(1, identity.limits.records.batch)
        bytesCap = max(1, identity.limits.records.requestBytes)
        forgottenAtLaunch = forgottenChanges()
    }

    /// Feeds one input to the engine; the app hears what it must.
    public mutating func handle(_ event: EngineEvent, app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        switch event {
        case .launched:
            wantFetch = true
            noteForgottenChanges(&context)
            pump(&app, &context)
        case .foreground:
            // The app asks now: the fetch does not wait out the backoff (but still a `retryAfter`).
            retryAfter.stopWaitingOutBackoff(armed: &retryArmed, timer: SyncEnginePlatform.retryTimer, &context)
            wantFetch = true
            pump(&app, &context)
        case .connectivity(let isOnline):
            online = isOnline
            if isOnline {
                backoff.reset()
                if retryArmed {
                    retryArmed = false
                    context.emit(.cancelTimer(SyncEnginePlatform.retryTimer))
                }
                if let left = retryAfter.remaining(now: context.now) { armRetry(after: left, &context) }
                wantFetch = true
                pump(&app, &context)
            }
        case .response(let envelope):
            handleResponse(envelope, &app, &context)
        case .push(let push):
            if push.account == account {
                wantFetch = true
                pump(&app, &context)
            }
        case .timer(let timer):
            guard timer.kind(as: TimerKind.self) == .retry else { break }
            retryArmed = false
            retryAfter.clear()
            pump(&app, &context)
        case .signedIn(let newAccount):
            guard account != newAccount else { break }
            let change: HostedAccountChange = account == nil ? .signIn : .switchAccounts
            changeAccount(to: newAccount, change, &app, &context)
        case .signedOut:
            guard account != nil else { break }
            changeAccount(to: nil, .signOut, &app, &context)
        }
        flushState(&app, &context)
        // Read once per step: a step is one instant, and the user sees where it ends.
        syncView(&app, userWrite: nil, &context)
    }

    /// The user did `action` through the app (a scenario op with write `write`).
    public mutating func userDid(_ action: HostedUserAction, write: WriteID, app: inout any SyncEngineAppHosting, _ context: inout EngineContext) -> AppCallResult {
        switch action {
        case .saveRecord(let id, let type, let fields):
            rememberEdit(id, type, fields, write: write, &context)
        case .deleteRecord(let id):
            rememberGone(id, write: write, &context)
        case .saveAtomically(let saves, let deletes):
            for save in saves { rememberEdit(save.id, save.type, save.fields, write: write, &context) }
            for id in deletes { rememberGone(id, write: write, &context) }
        case .createZone, .deleteZone:
            break
        }
        if case .deleteZone(let zone) = action {
            labels.zoneDeletes[zone] = write
            for key in labels.viewKeys where key.name.hasPrefix(zone + "/") { labels.remember(key, .absent, write, at: context.now) }
        }
        // What the call changes in the view is journalled (a copy of the view would make its
        // first change copy every item).
        viewJournal = [:]
        let stateBefore = state
        callApp(&app, &context) { app, state in app.userDid(action, state: &state) }
        // The user's change shows before anything the sends below bring.
        syncView(&app, userWrite: write, &context)
        pump(&app, &context)
        flushState(&app, &context)
        syncView(&app, userWrite: nil, &context)
        let journal = viewJournal ?? [:]
        viewJournal = nil
        let viewUnchanged = journal.allSatisfy { labels.view($0.key) == $0.value }
        return viewUnchanged && stateBefore == state ? .unchanged : .accepted
    }

    /// Remembers the user's edit of record `id` as shown to the app, by `write`: only the fields
    /// whose value changes (a save of what the user already sees is no write there).
    private mutating func rememberEdit(_ id: RecordID, _ type: String, _ fields: [FieldAssignment], write: WriteID, _ context: inout EngineContext) {
        let existence = item(id)
        if labels.view(existence) == nil { labels.remember(existence, .recordExists(type: type), write, at: context.now) }
        for assignment in fields {
            let key = item(id, field: assignment.name)
            let value: ItemValue = assignment.value.map { .field($0) } ?? .absent
            if (labels.view(key)?.value ?? .absent) == value { continue }
            labels.remember(key, value, write, at: context.now)
        }
    }

    /// `zone.delete` from Settings (`byUser`): the platform deletes the zone itself; the app hears
    /// of it at once as a fetched deletion with reason `purged`, so it drops the zone's data and
    /// uploads nothing more into it, as the built-in engine does (SPEC §4.3). Told only at the
    /// next fetch, the app would meanwhile save into the zone, and the cloud's delete would take
    /// the save with it (records seed 666).
    public mutating func userDeletedZoneInSettings(_ zone: String, write: WriteID, app: inout any SyncEngineAppHosting, _ context: inout EngineContext) -> AppCallResult {
        guard zone != RecordID.defaultZone else { return .rejected(error: "invalidArguments") }
        labels.ownLater.insert(write)
        // Queued with the device (not the app's state): it goes out as soon as the engine can send.
        labels.settingsDeletes.append(ZoneDeletion(zone: zone, byUser: true, write: write))
        if account != nil {
            zoneGone(zone, write: write)
            stateDirty = true
            tell(.fetchedDatabaseChanges(modified: [], deleted: [HostedZoneDeletion(zone: zone, reason: .purged)]), &app, &context)
        }
        pump(&app, &context)
        flushState(&app, &context)
        syncView(&app, userWrite: nil, &context)
        return .accepted
    }

    /// `isQuiescent`, read where the engine lies (`devices[i].recordsPlatform?.isQuiescent`
    /// would copy the whole engine out first).
    public mutating func isQuiescentInPlace() -> Bool { isQuiescent }

    /// True when the engine has no work it could do now (offline or signed out: none).
    public var isQuiescent: Bool {
        if !inFlight.isEmpty { return false }
        guard online, account != nil else { return true }
        if retryArmed || wantFetch || wantsSubscription { return false }
        if !state.pendingZoneChanges.isEmpty || !labels.settingsDeletes.isEmpty { return false }
        return state.pendingRecordChanges.isEmpty || sendBlocked
    }

    /// The device's own writes the pending changes stand for, in pending order: per pending save,
    /// the record's items the app shows with a write made on this device; per pending delete, its
    /// write. What the host reports as discarded when the app is deleted (a write that reached the
    /// cloud anyway survives there, and the checker does not count it lost). A record whose
    /// `serverRecordChanged` the app has not answered counts as a pending save after them: the
    /// app holds its edits (the built-in apps hold a custom-zone conflict until a fetch shows
    /// the rest), so they are as unsent as a pending save's, and go with the app or the account
    /// (records seed 295; unreported, the checker blamed the conflict for their loss).
    ///
    /// Then the app's pending zone deletions (`zone.delete` through the app), each with the
    /// records it removed from what the app showed, as the built-in engine reports its queued
    /// zone deletes: never sent, the records are back in the cloud's data, and reported as
    /// discarded they are no resurrection (records seed 3370: a zone deleted and an account
    /// switch at the same instant).
    public func pendingWrites() -> [(WriteID, ItemKey)] {
        let zoneDeletes = pendingZoneDeleteWrites()
        guard !state.pendingRecordChanges.isEmpty || !conflictsUnanswered.isEmpty else { return zoneDeletes }
        var byRecord: [String: [ItemKey]] = [:]
        for key in labels.viewKeys { byRecord[key.name, default: []].append(key) }
        var result: [(WriteID, ItemKey)] = []
        func ownWrites(of id: RecordID) {
            for key in (byRecord[id.itemName] ?? []).sorted() {
                if let write = labels.view(key)?.write, write.device == identity.device { result.append((write, key)) }
            }
        }
        for change in state.pendingRecordChanges {
            switch change {
            case .save(let id):
                ownWrites(of: id)
            case .delete(let id):
                if let write = labels.known(item(id), .absent)?.write { result.append((write, item(id))) }
            }
        }
        for id in conflictsUnanswered.sorted() where !state.pendingRecordChanges.contains(.save(id)) { ownWrites(of: id) }
        return result + zoneDeletes
    }

    /// `pendingWrites`' part for the app's pending zone deletions: per deletion the user made,
    /// the records of the zone the app no longer shows whose latest value is the absence by
    /// that deletion's write, in name order.
    func pendingZoneDeleteWrites() -> [(WriteID, ItemKey)] {
        guard !state.pendingZoneChanges.isEmpty, !labels.zoneDeletes.isEmpty else { return [] }
        var result: [(WriteID, ItemKey)] = []
        let account = account ?? lastAccount
        for change in state.pendingZoneChanges {
            guard case .delete(let zone) = change, let write = labels.zoneDeletes[zone] else { continue }
            var removed: [ItemKey] = []
            for (recordKey, entry) in labels.records where recordKey.account == account && recordKey.name.hasPrefix(zone + "/") && entry.view("") == nil {
                let existence = ItemKey(account: account, store: .records, name: recordKey.name)
                if let latest = labels.latestShown(existence), latest.value == .absent, latest.write == write { removed.append(existence) }
            }
            for key in removed.sorted() { result.append((write, key)) }
        }
        return result
    }

    /// What the app shows now (as last read), item by item, sorted.
    public func localView() -> [ViewEntry] {
        labels.viewEntries.map { ViewEntry(item: $0.key, value: $0.labeled.value, write: $0.labeled.write) }.sorted { $0.item < $1.item }
    }
}
