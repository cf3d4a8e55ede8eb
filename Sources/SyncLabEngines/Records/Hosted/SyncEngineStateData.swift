import SyncLabProtocol

/// What a CKSyncEngine-shaped platform engine keeps in its state serialization (SPEC §9): the
/// pending changes, the change tokens and the subscriptions. The app decides whether to save it
/// (`stateUpdate`); after a crash the engine starts from what the app saved, nothing else.
public struct SyncEngineStateData: Hashable, Sendable {
    /// The account the state belongs to (nil: none signed in when it was made).
    public var account: AccountID?
    /// Pending record changes, in the order added (a change is listed once).
    public var pendingRecordChanges: [PendingRecordChangeData] = []
    /// Pending zone saves and deletes, in the order added.
    public var pendingZoneChanges: [PendingZoneChangeData] = []
    public var databaseToken: DatabaseChangeToken?
    /// Zone name → the token of its last fetch.
    public var zoneTokens: [String: ZoneChangeToken] = [:]
    /// Zones to fetch at the next fetch whatever the database changes say (a token expired).
    public var zonesToFetch: [String] = []
    /// Accounts whose private database the engine has subscribed to.
    public var subscribedAccounts: [AccountID] = []
    /// Pending changes added again while already pending, since the platform last looked (it
    /// empties this after every call into the app): not part of what a change means.
    public var readded: [PendingRecordChangeData] = []
    /// Set by the app's adapter when a call into the app changed the state (the platform clears
    /// it after every call): so the platform needs no copy of the state to compare with.
    public var changedByApp = false

    public init(account: AccountID?) { self.account = account }

    /// `add(pendingRecordZoneChanges:)`: each change once, in order; one already pending is noted
    /// as added again (a send in flight must not clear it).
    public mutating func add(_ changes: [PendingRecordChangeData]) {
        // One pass over the pending list per call, whatever the number of changes added.
        var pending = Set(pendingRecordChanges)
        var replaced: Set<RecordID> = []
        var added: [PendingRecordChangeData] = []
        var addedHere: Set<PendingRecordChangeData> = []
        for change in changes {
            if pending.contains(change) {
                // Already pending before this call: it may be on the wire.
                if !addedHere.contains(change) { readded.append(change) }
                continue
            }
            // A save replaces a pending delete of the same record and the other way round.
            let other: PendingRecordChangeData = { if case .save(let id) = change { return .delete(id) } else { return .save(change.id) } }()
            if pending.remove(other) != nil {
                if addedHere.remove(other) != nil { added.removeAll { $0 == other } } else { replaced.insert(change.id) }
            }
            pending.insert(change)
            addedHere.insert(change)
            added.append(change)
        }
        if !replaced.isEmpty { pendingRecordChanges.removeAll { replaced.contains($0.id) } }
        pendingRecordChanges += added
    }

    /// `remove(pendingRecordZoneChanges:)`.
    public mutating func remove(_ changes: [PendingRecordChangeData]) {
        let removed = Set(changes)
        pendingRecordChanges.removeAll { removed.contains($0) }
    }

    /// `add(pendingDatabaseChanges:)`: each once, in order.
    public mutating func add(_ changes: [PendingZoneChangeData]) {
        for change in changes where !pendingZoneChanges.contains(change) {
            pendingZoneChanges.removeAll { $0.zone == change.zone }
            pendingZoneChanges.append(change)
        }
    }

    /// `remove(pendingDatabaseChanges:)`.
    public mutating func remove(_ changes: [PendingZoneChangeData]) {
        pendingZoneChanges.removeAll { changes.contains($0) }
    }
}
