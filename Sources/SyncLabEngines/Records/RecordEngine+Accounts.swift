import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// Signing out drops the account's records, pending changes (each reported as discarded) and
    /// tokens from the device; the cloud keeps what it has. Records saved while signed out stay
    /// local and are uploaded after the next sign-in.
    mutating func signOut(_ context: inout EngineContext) {
        context.log("accountChange", [("change", "signOut")])
        guard state.account != nil else { return }
        dropAccountData(reason: "discarded at sign-out", &context)
        state.account = nil
        accountEpoch += 1
    }

    /// Signing in (after a sign-out, or switching accounts) starts from that account's data.
    mutating func signIn(_ account: AccountID, _ context: inout EngineContext) {
        context.log("accountChange", [("change", "signIn")])
        if state.account == account { return }
        if state.account != nil { dropAccountData(reason: "discarded at account switch", &context) }
        if account != state.lastAccount {
            // Records saved while signed out belong to whoever signs in next: relabel them.
            let old = state.lastAccount
            for key in state.table.localKeys.sorted() where key.database == .private {
                let record = state.table[local: key]!
                var entries: [(String, StoredField?, ItemValue)] = [("", nil, .recordExists(type: record.type))]
                // A field removed while signed out is carried too: the new account's copy is
                // without it by that removal (records seed 5: a removal reported in no account
                // looked lost to a value the old account kept).
                for name in record.fieldNames {
                    if let field = record.fields[name] { entries.append((name, field, field.value.map { .field($0) } ?? .absent)) }
                }
                for (field, _, _) in entries {
                    context.observe(.visible(item: ItemKey(account: old, store: .records, name: key.itemName, field: field), value: .absent, write: nil, cause: .reset))
                }
                for (field, stored, value) in entries {
                    context.observe(.visible(item: ItemKey(account: account, store: .records, name: key.itemName, field: field), value: value,
                                             write: stored?.write ?? record.existenceWrite, cause: .reset))
                }
            }
        }
        state.account = account
        state.lastAccount = account
        accountEpoch += 1
        sending = false
        subscribing = false
        fetchPhase = .idle
        wantFetch = true
        pump(&context)
    }

    /// Drops the private database's local data: records (reported absent, `.reset`), pending
    /// changes (reported discarded), server records, zones, tokens and conflict memory.
    private mutating func dropAccountData(reason: String, _ context: inout EngineContext) {
        for key in orderedPendingKeys() where key.database == .private {
            for (write, pendingItem) in pendingWrites(of: key) {
                context.observe(.discarded(write: write, item: pendingItem, reason: reason))
            }
        }
        for (write, removedItem) in pendingZoneDeletes(in: .private) {
            context.observe(.discarded(write: write, item: removedItem, reason: reason))
        }
        // Records the device showed deleted by a write (another device's delete it fetched, or
        // its own) are absent by no write from now on too: a record it creates while signed out
        // is built on nothing, not on that delete and every version the delete had seen (records
        // seed 39074: a create built on a fetched delete made the device's later delete of
        // another record of the same atomic call "see" that record's first version, and its
        // return at sign-in was reported a resurrection).
        // Those a discarded delete removed are reported below, with the discard.
        let removedByDiscards = itemsRemovedByPendingDeletes(in: .private)
        let reportedWithDiscards = Set(removedByDiscards)
        for key in state.shownDeleted.keys.sorted() where key.database == .private {
            let local = state.table[local: key]
            let names = Set(state.shownDeleted[key]!).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var items = names.filter { local?.fields[$0] == nil }.map { item(key, field: $0) }
            if local == nil { items.append(item(key)) }
            for removed in items where !reportedWithDiscards.contains(removed) {
                context.observe(.visible(item: removed, value: .absent, write: nil, cause: .reset))
            }
            state.shownDeleted[key] = nil
        }
        for key in state.table.localKeys.sorted() where key.database == .private {
            removeLocal(key, write: nil, .reset, &context)
        }
        // A record whose delete is discarded here was shown absent by that delete; from now on
        // it is absent by no write, as everything of the account is. A record the device then
        // creates (signed out, or in the next account) is built on nothing, not on the discarded
        // delete and the version it had removed (mixed seed 8474: a record created and deleted
        // while signed out counted as having seen that version, whose return at sign-in was
        // then reported a resurrection; the discard is the loss, and it is reported).
        for removed in removedByDiscards {
            context.observe(.visible(item: removed, value: .absent, write: nil, cause: .reset))
        }
        for key in state.pending.keys where key.database == .private { state.pending[key] = nil }
        for key in state.table.serverKeys where key.database == .private { state.table[server: key] = nil }
        for key in state.conflictTags.keys where key.database == .private { state.conflictTags[key] = nil }
        for key in state.heldFetched.keys where key.database == .private { state.heldFetched[key] = nil }
        for key in state.heldDeletions.keys where key.database == .private { state.heldDeletions[key] = nil }
        for key in state.heldUntilFetch.keys where key.database == .private { state.heldUntilFetch[key] = nil }
        // Versions of the account signed out of, fetched while a change was in doubt: never
        // another account's (records seed 9693: shown in the next account).
        for key in state.fetchedWhileCreating.keys where key.database == .private { state.fetchedWhileCreating[key] = nil }
        state.zones = [:]
        state.heldZoneDeletions = state.heldZoneDeletions.filter { $0.key.database != .private }
        state.zoneOperations.removeAll { $0.zone.database == .private }
        state.databaseToken = nil
        fetchedItems = []
        discardPublicChanges(reason: reason, &context)
    }

    /// The public database is world-readable, so the device keeps showing its public records; but
    /// the changes still pending there were made as the account being left, and are discarded
    /// with its private ones (SPEC §4.3, each a `lostUpdate`), the records going back to the last
    /// server version seen (a record they created goes). Kept, they went up after the sign-in as
    /// the next account, under its permissions: an edit made as alice of bob's post (only a
    /// record's creator may change it) was applied once the device signed into bob, and a post
    /// alice wrote was published as bob's (session 15, spec33). Changes made while signed out
    /// are not here (nothing is dropped then): they belong to whoever signs in next.
    private mutating func discardPublicChanges(reason: String, _ context: inout EngineContext) {
        var writes: Set<WriteID> = []
        for key in orderedPendingKeys() where key.database == .public {
            for (write, _) in pendingWrites(of: key) { writes.insert(write) }
            for (write, _) in foldedWrites(of: state.pending[key]!, key) { writes.insert(write) }
        }
        guard !writes.isEmpty else { return }
        _ = revert(writes, cause: .reset, &context) { write, discardedItem, context in
            context.observe(.discarded(write: write, item: discardedItem, reason: reason))
        }
        for key in state.pending.keys where key.database == .public { state.pending[key] = nil }
    }
}
