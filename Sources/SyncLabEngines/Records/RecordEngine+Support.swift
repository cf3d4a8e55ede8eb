import SyncLabKernel
import SyncLabProtocol

extension RecordEngine {
    /// The account label of a database's items: the public database, or the signed-in (else the
    /// last signed-in) account.
    func account(of database: DatabaseScope) -> AccountID {
        switch database {
        case .public: return .publicDatabase
        case .private: return state.account ?? state.lastAccount
        }
    }

    /// The checker's item for a record's field (`""`: the existence item).
    func item(_ key: RecordKey, field: String = "") -> ItemKey {
        ItemKey(account: account(of: key.database), store: .records, name: key.itemName, field: field)
    }

    /// Pending records in queue order.
    func orderedPendingKeys() -> [RecordKey] {
        // Sorted on the order itself, not through lookups in a closure that captures the engine
        // (which copied the whole engine on every call: this runs after every delivery).
        // Run after every delivery: zero or one pending record needs no array to sort.
        if state.pending.count < 2 { return state.pending.isEmpty ? [] : [state.pending.keys.first!] }
        var keyed: [(order: UInt64, key: RecordKey)] = []
        keyed.reserveCapacity(state.pending.count)
        for (key, change) in state.pending { keyed.append((change.order, key)) }
        keyed.sort { $0.order < $1.order }
        return keyed.map(\.key)
    }

    /// The (write, item) pairs a pending change stands for.
    func pendingWrites(of key: RecordKey) -> [(WriteID, ItemKey)] {
        guard let change = state.pending[key] else { return [] }
        switch change.kind {
        case .delete(let write):
            return [(write, item(key))]
        case .save:
            guard let record = state.table[local: key] else { return [] }
            var result: [(WriteID, ItemKey)] = []
            if state.table[server: key] == nil { result.append((record.existenceWrite, item(key))) }
            for name in change.sortedFields {
                if let field = record.fields[name] { result.append((field.write, item(key, field: name))) }
            }
            return result
        }
    }

    /// Whether changes could be sent now (not blocked on the quota or a user-deleted zone).
    var hasSendableWork: Bool {
        if !state.zoneOperations.isEmpty { return true }
        if state.pending.isEmpty { return false }
        return !sendableKeys().isEmpty
    }

    /// The pending records that can be sent now, in queue order. An atomic group goes out whole or
    /// not at all: one member that cannot go holds back the whole group.
    func sendableKeys() -> [RecordKey] {
        let all = orderedPendingKeys()
        var held: Set<WriteID> = []
        var sendable: [RecordKey] = []
        // Loops, not closures: a closure here captures (and so copies) the whole engine.
        for key in all {
            let change = state.pending[key]!
            if isSendable(key, change) { sendable.append(key) } else if let group = change.atomicGroup { held.insert(group) }
        }
        if held.isEmpty { return sendable }
        var result: [RecordKey] = []
        for key in sendable {
            if let group = state.pending[key]!.atomicGroup, held.contains(group) { continue }
            result.append(key)
        }
        return result
    }

    func isSendable(_ key: RecordKey, _ change: PendingRecordChange) -> Bool {
        !change.quotaBlocked && zone(key.zoneKey)?.userDeleted != true && !awaitingFetch.contains(key)
            && !awaitsCascadeRoot(key, change)
    }

    /// A public record this device deleted only as the cascade of the same write's delete of a
    /// record it references with `deleteSelf`: its delete waits for that delete's answer. The
    /// public database is the one place the cloud refuses a delete for good (only a record's
    /// creator may delete it, SPEC §4.3) and it has no atomic batches, so sent beside the refused
    /// delete the cascaded one was applied alone: a user deleting another user's post lost their
    /// own comment on it, while the post stayed (session 15, spec33). Held back, it goes with the
    /// refused write (rolled back whole), or is answered by the cloud's own cascade (SPEC §4.3:
    /// "as part of the same operation") when the delete is applied. The record the cascade came
    /// from is the one the device named (`cascadeOf`), so a cycle of references holds nothing.
    /// (In the private database such a delete goes in its root's request, or after its answer:
    /// `RecordEngine.sendNext`.)
    func awaitsCascadeRoot(_ key: RecordKey, _ change: PendingRecordChange) -> Bool {
        guard key.database == .public, case .delete(let write) = change.kind, let from = change.cascadeOf,
              case .delete(let fromWrite)? = state.pending[RecordKey(database: key.database, zone: key.zone, name: from)]?.kind else { return false }
        return fromWrite == write
    }

    /// Up to this many zones, a zone is found in `state.zones` by comparing names.
    static let zonesScanned = 4

    /// Where a zone is in `state.zones`. A device nearly always has one or two zones: comparing
    /// their names finds it without hashing its name (a dictionary lookup runs SipHash over the
    /// name, ~500 instructions: 4% of the records bench's, at every fetch and every send). With
    /// more zones, a lookup, so the cost stays flat.
    func zonePlace(_ key: ZoneKey) -> Dictionary<ZoneKey, LocalZone>.Index? { RecordEngine.zonePlace(key, in: state.zones) }

    /// `zonePlace` given the zones, not the engine: a method of the engine called from a
    /// mutating one is given a copy of the whole engine (488 bytes, every cache line of it),
    /// twice per zone fetch of every device (issue 13, session 11).
    static func zonePlace(_ key: ZoneKey, in zones: [ZoneKey: LocalZone]) -> Dictionary<ZoneKey, LocalZone>.Index? {
        guard zones.count <= RecordEngine.zonesScanned else { return zones.index(forKey: key) }
        var index = zones.startIndex
        while index != zones.endIndex {
            if zones.keys[index] == key { return index }
            zones.formIndex(after: &index)
        }
        return nil
    }

    /// What the device knows of a zone (nil: nothing), found as `zonePlace` finds it.
    func zone(_ key: ZoneKey) -> LocalZone? { RecordEngine.zone(key, in: state.zones) }

    /// `zone(_:)` given the zones (see `zonePlace(_:in:)`).
    static func zone(_ key: ZoneKey, in zones: [ZoneKey: LocalZone]) -> LocalZone? {
        zonePlace(key, in: zones).map { zones.values[$0] }
    }

    /// Changes what the device knows of a zone, starting from a fresh `LocalZone` if it knows
    /// nothing (as `state.zones[key, default: LocalZone()]`), found as `zonePlace` finds it.
    mutating func updateZone(_ key: ZoneKey, _ change: (inout LocalZone) -> Void) {
        if let place = RecordEngine.zonePlace(key, in: state.zones) {
            change(&state.zones.values[place])
        } else {
            var local = LocalZone()
            change(&local)
            state.zones[key] = local
        }
    }

    var wantsPrivateSubscription: Bool {
        guard let account = state.account else { return false }
        return !state.subscribedAccounts.contains(account)
    }

    var wantsPublicSubscription: Bool { state.publicSubscriptionWanted && !state.publicSubscribed }

    mutating func nextRequestID() -> UInt64 {
        state.requestCounter += 1
        return state.requestCounter
    }

    /// A write the engine makes itself (merge results, re-stamped fields of a re-uploaded record).
    func nextDerivedWrite(_ context: inout EngineContext) -> WriteID { context.nextDerivedWrite(on: identity.device) }

    /// Reports what the app now sees for one field (or the existence item).
    func show(_ key: RecordKey, field: String, _ stored: StoredField?, _ cause: VisibilityCause, _ context: inout EngineContext) {
        let value: ItemValue = stored?.value.map { .field($0) } ?? .absent
        context.observe(.visible(item: item(key, field: field), value: value, write: stored?.write, cause: cause))
    }

    /// Brings the local copy of a record in line with a server record, for every field that has
    /// no pending local change; reports each visible change with `cause`. Does nothing while a
    /// delete of the record is pending (the app no longer sees it).
    /// - Returns: whether anything the app sees changed.
    @discardableResult
    mutating func applyServer(_ key: RecordKey, _ server: ServerRecord, _ cause: VisibilityCause, _ context: inout EngineContext) -> Bool {
        applyServer(key, server, cause, at: state.table.place(of: key), &context)
    }

    /// `applyServer` with the record's place in the table already found (nil: no slot), as
    /// `applyFetched` has it: a second lookup of every fetched record otherwise.
    mutating func applyServer(_ key: RecordKey, _ server: ServerRecord, _ cause: VisibilityCause, at place: RecordTable.Place?,
                              _ context: inout EngineContext) -> Bool {
        var pendingFields: Set<String> = []
        if let change = state.pending[key] {
            switch change.kind {
            case .delete: return false
            case .save(let fields): pendingFields = fields
            }
        }
        var changed = false
        var local = LocalRecord(type: server.type, fields: [:], existenceWrite: server.existenceWrite)
        // The stored record is taken out of its slot (leaving nil there) and put back at the same
        // place, not copied: a copy shares its field dictionary with the stored record, so the
        // first field set below copied the whole dictionary (an allocation and a rehash for every
        // record of every fetch). Nothing below inserts or removes records, so the place stays
        // valid.
        if let place, let stored = state.table.takeLocal(at: place) {
            local = stored
            let creating = pendingFields.isEmpty == false && !state.table.hasServer(at: place)
            if !creating && (local.existenceWrite != server.existenceWrite || local.type != server.type) {
                local.existenceWrite = server.existenceWrite
                local.type = server.type
                context.observe(.visible(item: item(key), value: .recordExists(type: server.type), write: server.existenceWrite, cause: cause))
                changed = true
            }
        } else {
            context.observe(.visible(item: item(key), value: .recordExists(type: server.type), write: server.existenceWrite, cause: cause))
            changed = true
        }
        var differing: [String] = []
        if pendingFields.isEmpty, let differ = RecordEngine.fieldsDiffer(local, server, listing: context.observing, into: &differing) {
            // Every field takes the server's: the local fields become the server record's own
            // dictionary (shared, not copied), and only the names whose value or write differ
            // are listed and sorted (usually one), not every name of both records. They are
            // listed only for a host that keeps observations: `show` builds nothing for one
            // that does not (benchmarks), and the list is an allocation per fetched record.
            local.fields = server.fields
            RecordEngine.sortByUTF8(&differing)
            for name in differing { show(key, field: name, server.fields[name], cause, &context) }
            changed = changed || differ
        } else {
            for name in RecordEngine.fieldNames(of: local, and: server) where !pendingFields.contains(name) {
                let before = local.fields[name], after = server.fields[name]
                if RecordEngine.sameShown(before, after) {
                    local.fields[name] = after
                    continue
                }
                local.fields[name] = after
                show(key, field: name, after, cause, &context)
                changed = true
            }
        }
        if let place { state.table[slotAt: place].local = local } else { state.table[local: key] = local }
        return changed
    }

    /// Whether the app sees no change when a field goes from `before` to `after`: the same value
    /// by the same write. A removal the server record carries (`after` with no value) is shown by
    /// its write even where the field was already absent, as an equal value with a newer write
    /// is: the absence is now that removal's (mixed seed 43486: a field absent by the device's
    /// own earlier delete, absent in the fetched version by another device's later save, still
    /// credited to the delete, so the checker saw part of an atomic save the delete had
    /// replaced). A field the server record does not name at all changes nothing.
    static func sameShown(_ before: StoredField?, _ after: StoredField?) -> Bool {
        before?.value == after?.value && (after == nil || before?.write == after?.write)
    }

    /// The field names, in UTF-8 order, whose shown value or write differs between the local
    /// record and the server record (`sameShown`), each once: what `applyServer` shows when every
    /// field takes the server's. Nil when a name both records have is spelled differently in
    /// each (canonically equal, other bytes): the local spelling must then stay, which taking the
    /// server's dictionary whole would not do, so the caller goes field by field.
    static func differingFieldNames(_ local: LocalRecord, _ server: ServerRecord) -> [String]? {
        var differing: [String] = []
        guard fieldsDiffer(local, server, listing: true, into: &differing) != nil else { return nil }
        sortByUTF8(&differing)
        return differing
    }

    /// Whether any field's shown value or write differs between the local record and the server
    /// record (`sameShown`); nil when a name both have is spelled differently in each (see
    /// `differingFieldNames`). With `listing`, each differing name is appended to `names`, in no
    /// particular order; without, nothing is (no array made).
    static func fieldsDiffer(_ local: LocalRecord, _ server: ServerRecord, listing: Bool, into names: inout [String]) -> Bool? {
        var differ = false
        var foundLocally = 0
        for (name, after) in server.fields {
            guard let place = fieldPlace(local.fields, name) else {
                if !sameShown(nil, after) {
                    differ = true
                    if listing { names.append(name) }
                }
                continue
            }
            foundLocally += 1
            let (localName, before) = local.fields[place]
            guard RecordEngine.sameBytes(localName, name) else { return nil }
            if !sameShown(before, after) {
                differ = true
                if listing { names.append(name) }
            }
        }
        if foundLocally != local.fields.count {
            for (name, before) in local.fields where server.fields[name] == nil && !sameShown(before, nil) {
                differ = true
                if listing { names.append(name) }
            }
        }
        return differ
    }

    /// Up to this many fields, a field is found by comparing names (see `fieldPlace`).
    static let fieldsScanned = 4

    /// Where a field of this name (canonically equal) is in `fields`. A record nearly always has
    /// a few fields: comparing their names finds it without hashing the name (SipHash, some 300
    /// instructions, for every field of every fetched record). With more, a lookup.
    static func fieldPlace(_ fields: [String: StoredField], _ name: String) -> Dictionary<String, StoredField>.Index? {
        guard fields.count <= fieldsScanned else { return fields.index(forKey: name) }
        var index = fields.startIndex
        while index != fields.endIndex {
            if fields.keys[index] == name { return index }
            fields.formIndex(after: &index)
        }
        return nil
    }

    /// Sorts names by their UTF-8 bytes (one name or none: nothing to do).
    static func sortByUTF8(_ names: inout [String]) {
        if names.count > 1 { names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    /// Whether two strings are spelled with the same UTF-8 bytes (not only canonically equal).
    /// Compared in place when both are contiguous (native strings always are), a byte at a time
    /// in a plain loop: the generic `elementsEqual` (over the views, or over the buffers) cost
    /// some 160 instructions for a five-byte name.
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        let compared = first.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.utf8.withContiguousStorageIfAvailable { secondBytes in
                guard firstBytes.count == secondBytes.count else { return false }
                for offset in 0..<firstBytes.count where firstBytes[offset] != secondBytes[offset] { return false }
                return true
            }
        }
        if case .some(.some(let same)) = compared { return same }
        return first.utf8.elementsEqual(second.utf8)
    }

    /// The field names of both records, each once, in UTF-8 order. Usually both name the same
    /// fields: then the local record's names are the answer, found without listing and sorting
    /// the server record's (an allocation and a sort per record of every fetch).
    static func fieldNames(of local: LocalRecord, and server: ServerRecord) -> [String] {
        if local.fields.count == server.fields.count && server.fields.keys.allSatisfy({ local.fields[$0] != nil }) {
            return local.fieldNames
        }
        return sortedUnion(local.fieldNames, server.fieldNames)
    }

    /// The field names of a local record and of a server record, each once, in UTF-8 order
    /// (`first` and `second` are each sorted so). Usually both name the same fields: then the
    /// answer is `first` itself, without the set of every name and the sort of it (two
    /// allocations and a hash per name, for every record of every fetch). Otherwise a set keeps
    /// one name of each canonically equal pair, `first`'s, as a dictionary of fields would.
    static func sortedUnion(_ first: [String], _ second: [String]) -> [String] {
        if first == second { return first }
        var names = Set(first)
        names.formUnion(second)
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes a record from the local cache, reporting each item the app saw as absent.
    mutating func removeLocal(_ key: RecordKey, write: WriteID?, _ cause: VisibilityCause, _ context: inout EngineContext) {
        state.fetchedWhileCreating[key] = nil
        guard let record = state.table.removeLocal(forKey: key) else { return }
        if write != nil, key.database == .private { state.shownDeleted[key, default: []].append(contentsOf: record.fieldNames) }
        // A field shown removed is reported too: the removal is replaced by this write, as a
        // value is (mixed seed 8474: a save's removal after a delete, then deleted again).
        for name in record.fieldNames {
            context.observe(.visible(item: item(key, field: name), value: .absent, write: write, cause: cause))
        }
        context.observe(.visible(item: item(key), value: .absent, write: write, cause: cause))
    }

    /// Changes blocked on the quota may go again (space may have freed).
    mutating func unblockQuota() {
        // In place by index: per key a lookup, and a copy of its change to read one flag, on
        // every push. Setting a flag moves no key, so the index stays valid. (Not `indices`,
        // which holds a copy of the dictionary: the first write through it would copy it all.)
        var index = state.pending.startIndex
        while index != state.pending.endIndex {
            if RecordEngine.isQuotaBlocked(&state.pending.values[index]) { state.pending.values[index].quotaBlocked = false }
            state.pending.formIndex(after: &index)
        }
    }

    private static func isQuotaBlocked(_ change: inout PendingRecordChange) -> Bool { change.quotaBlocked }

    /// Queues a change (or extends the record's pending change).
    mutating func enqueue(_ key: RecordKey, fields: Set<String>, atomicGroup: WriteID?) {
        if var change = state.pending[key] {
            switch change.kind {
            case .save(let existing): change.kind = .save(fields: existing.union(fields))
            case .delete: change.kind = .save(fields: fields)
            }
            change.quotaBlocked = false
            state.pending[key] = change
            joinAtomicGroup(key, atomicGroup)
        } else {
            state.nextPendingOrder += 1
            state.pending[key] = PendingRecordChange(order: state.nextPendingOrder, kind: .save(fields: fields), atomicGroup: atomicGroup)
        }
    }

    /// Puts a record's pending change into an atomic call's group (nil: a plain call, which joins
    /// whatever group the change is in already). A record has one pending change, so when it is
    /// already in an earlier call's group the two groups become one, sent in one atomic request:
    /// splitting the earlier call would show part of it (SPEC §4.3, §6).
    mutating func joinAtomicGroup(_ key: RecordKey, _ group: WriteID?) {
        guard let group, let change = state.pending[key] else { return }
        let labels = Set(state.pending.values.compactMap(\.atomicGroup))
        state.joinedAtomicCalls = state.joinedAtomicCalls.filter { labels.contains($0.key) }
        if let old = change.atomicGroup, old != group {
            for other in state.pending.keys where state.pending[other]?.atomicGroup == old {
                state.pending[other]!.atomicGroup = group
            }
            let joined = [old] + (state.joinedAtomicCalls.removeValue(forKey: old) ?? [])
            state.joinedAtomicCalls[group, default: []].append(contentsOf: joined)
        }
        state.pending[key]!.atomicGroup = group
    }

    /// The `records.saveAtomic` calls an atomic group stands for.
    func atomicCalls(of group: WriteID) -> Set<WriteID> {
        Set([group] + (state.joinedAtomicCalls[group] ?? []))
    }

    /// A zone's deletion applied on this device (see `zoneDeletions`).
    mutating func noteZoneDeleted(_ zone: ZoneKey) {
        zoneDeletions += 1
        zoneDeletedAt[zone] = zoneDeletions
    }

    /// Queues a zone operation unless the same one is queued already.
    mutating func enqueueZoneOperation(_ zone: ZoneKey, _ kind: PendingZoneOperation.Kind) {
        if state.zoneOperations.contains(where: { $0.zone == zone && $0.kind == kind }) { return }
        state.nextZoneOperationID += 1
        state.zoneOperations.append(PendingZoneOperation(id: state.nextZoneOperationID, zone: zone, kind: kind))
    }
}
