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

    public init(account: AccountID?) { self.account = account }

    /// `add(pendingRecordZoneChanges:)`: each change once, in order; one already pending is noted
    /// as added again (a send in flight must not clear it).
    public mutating func add(_ changes: [PendingRecordChangeData]) {
        for change in changes {
            if pendingRecordChanges.contains(change) { readded.append(change); continue }
            // A save replaces a pending delete of the same record and the other way round.
            pendingRecordChanges.removeAll { $0.id == change.id }
            pendingRecordChanges.append(change)
        }
    }

    /// `remove(pendingRecordZoneChanges:)`.
    public mutating func remove(_ changes: [PendingRecordChangeData]) {
        pendingRecordChanges.removeAll { changes.contains($0) }
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
