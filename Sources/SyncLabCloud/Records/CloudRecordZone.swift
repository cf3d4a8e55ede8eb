import SyncLabKernel
import SyncLabProtocol

/// One live zone of a cloud database: its records, tombstones and change sequence.
struct CloudRecordZone: Hashable, Sendable {
    /// A record and the bookkeeping the cloud keeps beside it.
    struct Entry: Hashable, Sendable {
        var record: ServerRecord
        /// The database sequence of the record's last change (for change tokens).
        var sequence: UInt64
        /// Bytes charged to the quota for it: record size plus assets.
        var chargedBytes: Int64
        /// Earlier versions, newest last, at most `CloudRecordZone.historyDepth`: the ancestors
        /// `serverRecordChanged` carries.
        var history: [ServerRecord]
        /// The saves applied to this record, newest last, at most `CloudRecordZone.savesRemembered`.
        ///
        /// A request whose answer was lost is sent again as it was (same fields, write ids and
        /// change tag). Finding it here, the cloud answers as if it applied it now and changes
        /// nothing: the write is already in, and changes others made on top of it since must not
        /// be overwritten by it (SPEC §3.2: every request is idempotent).
        var appliedSaves: [RecordSave] = []
        /// The saves applied to an earlier record of this name, deleted before this one was
        /// created (its tombstone's): one re-sent after its answer was lost is done, and deleted
        /// since; it must neither count as applied to this record nor, once this one goes too,
        /// bring the record back (mixed seed 47576).
        var savesBeforeDeletion: [RecordSave] = []
    }

    /// A deleted record: the delete's write and the sequence it happened at.
    struct Tombstone: Hashable, Sendable {
        var write: WriteID
        var sequence: UInt64
        /// The saves the record had applied when it was deleted: one re-sent after its answer
        /// was lost was applied before this delete, and must not bring the record back.
        var appliedSaves: [RecordSave] = []
    }

    /// Per record name, the saves applied before an earlier zone of this name was deleted
    /// (see `CloudRecordDatabase.DeletedZone.appliedSaves`).
    var savesBeforeZoneDeletion: [String: [RecordSave]] = [:]
    /// Per record name, the delete writes applied before an earlier zone of this name was
    /// deleted (see `CloudRecordDatabase.DeletedZone.appliedDeletes`).
    var deletesBeforeZoneDeletion: [String: [WriteID]] = [:]

    /// Per record name, every delete write this zone remembers applying (and those of an
    /// earlier zone of this name): what a deleted zone keeps.
    var appliedDeletesByName: [String: [WriteID]] {
        var result = deletesBeforeZoneDeletion
        for (name, writes) in appliedDeletes { result[name, default: []].append(contentsOf: writes) }
        return result
    }

    /// Whether this delete write was applied to the record of this name (in this zone or an
    /// earlier zone of its name): a re-sent delete, done already.
    func deleteApplied(_ name: String, _ write: WriteID) -> Bool {
        appliedDeletes[name]?.contains(write) == true || deletesBeforeZoneDeletion[name]?.contains(write) == true
    }

    /// Per record name, every save this zone remembers applying (live records and deleted ones,
    /// and those of an earlier zone of this name): what a deleted zone keeps.
    var appliedSavesByName: [String: [RecordSave]] {
        var result = savesBeforeZoneDeletion
        for (name, entry) in records { result[name, default: []].append(contentsOf: entry.savesBeforeDeletion + entry.appliedSaves) }
        for (name, tombstone) in tombstones { result[name, default: []].append(contentsOf: tombstone.appliedSaves) }
        return result
    }

    /// How many earlier versions of a record are kept as possible ancestors.
    static let historyDepth = 4

    /// How many applied saves per record are remembered to recognise re-sent ones. A device
    /// re-sends after a timeout, a backoff or a restart; a save older than the last
    /// `savesRemembered` writes to its record is past recognising and meets the change-tag check
    /// like any other.
    static let savesRemembered = 16

    /// Tells this zone apart from an earlier zone of the same name (deleted, then recreated).
    var incarnation: UInt64
    /// The database sequence of the zone's last change (creation, or any record change).
    var lastChangeSequence: UInt64
    /// Live records by name. Change them only through `store(_:_:)` and `bury(_:_:)`, which
    /// keep `changeLog` in step.
    private(set) var records: [String: Entry] = [:]
    private(set) var tombstones: [String: Tombstone] = [:]
    /// Per record name, the delete writes applied to it, newest last (at most
    /// `savesRemembered`): a delete re-sent after its answer was lost must not delete the record
    /// again once someone re-created it (SPEC §3.2: every request is idempotent).
    private(set) var appliedDeletes: [String: [WriteID]] = [:]
    /// Every record change in sequence order: what a zone fetch walks from its token on, so a
    /// fetch costs the changes since the token, not the size of the zone. A record changed again
    /// leaves its earlier entry behind (skipped as stale); `compactIfSparse()` drops those.
    private(set) var changeLog: [LoggedChange] = []
    /// The last few answers of `changes(since:)`, while nothing changed since (see `ZoneAnswers`).
    private(set) var answers = ZoneAnswers()

    /// One record change: the record's name and the sequence it changed at.
    struct LoggedChange: Hashable, Sendable {
        var sequence: UInt64
        var name: String
    }

    init(incarnation: UInt64, sequence: UInt64) {
        self.incarnation = incarnation; self.lastChangeSequence = sequence
    }

    /// Saves a record's new entry (its sequence is the change's), replacing any tombstone.
    mutating func store(_ name: String, _ entry: Entry) {
        answers.removeAll()
        records[name] = entry
        tombstones[name] = nil
        log(entry.sequence, name)
    }

    /// Deletes a live record, leaving a tombstone. Returns the entry deleted, if there was one.
    mutating func bury(_ name: String, _ tombstone: Tombstone) -> Entry? {
        guard let entry = records.removeValue(forKey: name) else { return nil }
        answers.removeAll()
        var tombstone = tombstone
        tombstone.appliedSaves = Array((entry.savesBeforeDeletion + entry.appliedSaves).suffix(CloudRecordZone.savesRemembered))
        tombstones[name] = tombstone
        appliedDeletes[name, default: []].append(tombstone.write)
        if appliedDeletes[name]!.count > CloudRecordZone.savesRemembered { appliedDeletes[name]!.removeFirst() }
        log(tombstone.sequence, name)
        return entry
    }

    /// Records changed and deleted after `since`, each list ordered by sequence and, within one
    /// sequence (a cascade), by name in UTF-8 order. Mutating only to read the entries in place
    /// (see `collect`).
    mutating func changes(since: UInt64) -> (changed: [ServerRecord], deleted: [(name: String, tombstone: Tombstone)]) {
        if let answer = answers.answer(since: since) { return (answer.changed, answer.deleted) }
        let answer = collectChanges(since: since)
        answers.keep(ZoneAnswers.Answer(since: since, changed: answer.changed, deleted: answer.deleted))
        return answer
    }

    /// `changes(since:)` found in the change log.
    private mutating func collectChanges(since: UInt64) -> (changed: [ServerRecord], deleted: [(name: String, tombstone: Tombstone)]) {
        var changed: [ServerRecord] = []
        var deleted: [(name: String, tombstone: Tombstone)] = []
        // The first entry after the token: the log is in sequence order.
        var low = 0, high = changeLog.count
        while low < high {
            let middle = (low + high) / 2
            if changeLog[middle].sequence <= since { low = middle + 1 } else { high = middle }
        }
        // At most one record per entry from here on (stale entries are at most half the log):
        // one allocation, not one per doubling, for the answer every device's fetch builds.
        changed.reserveCapacity(changeLog.count - low)
        var start = low
        while start < changeLog.count {
            var end = start + 1
            while end < changeLog.count && changeLog[end].sequence == changeLog[start].sequence { end += 1 }
            let sequence = changeLog[start].sequence
            // Nearly every sequence changed one record: its name is read in place, with no
            // array of one name made for it.
            if end == start + 1 {
                collect(changeLog[start].name, sequence, &changed, &deleted)
                start = end
                continue
            }
            var names = changeLog[start..<end].map(\.name)
            names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var previous: String?
            for name in names where name != previous {
                previous = name
                collect(name, sequence, &changed, &deleted)
            }
            start = end
        }
        return (changed, deleted)
    }

    /// The change of this name at `sequence`, if it is its latest: the live record or the
    /// tombstone. Read in place: `records[name]` copied the whole entry (the record, its history
    /// and its applied saves, each retained and released) to read its sequence, on every
    /// device's fetch. A name is live or buried, never both (`store` drops the tombstone, `bury`
    /// the record), so a live record's name is not looked up among the tombstones.
    private mutating func collect(_ name: String, _ sequence: UInt64, _ changed: inout [ServerRecord],
                         _ deleted: inout [(name: String, tombstone: Tombstone)]) {
        if let place = records.index(forKey: name) {
            RecordService.inPlace(&records.values[place]) { entry in
                if entry.sequence == sequence { changed.append(entry.record) }
            }
            return
        }
        if let tombstone = tombstones[name], tombstone.sequence == sequence { deleted.append((name, tombstone)) }
    }

    private mutating func log(_ sequence: UInt64, _ name: String) {
        changeLog.append(LoggedChange(sequence: sequence, name: name))
        // Amortised: the log is rebuilt only after it has grown to twice what is live.
        if changeLog.count > 2 * (records.count + tombstones.count) + 16 { compact() }
    }

    /// Keeps only the entries of each name's latest change.
    private mutating func compact() {
        changeLog.removeAll { change in
            records[change.name]?.sequence != change.sequence && tombstones[change.name]?.sequence != change.sequence
        }
    }

    /// Record names in UTF-8 byte order.
    var sortedNames: [String] { records.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// Names of records holding a `deleteSelf` reference to `target`, sorted.
    func cascadeTargets(of target: String) -> [String] {
        sortedNames.filter { name in
            records[name]!.record.fields.values.contains { field in field.value.map { CloudRecordZone.references($0, target) } ?? false }
        }
    }

    private static func references(_ value: FieldValue, _ target: String) -> Bool {
        switch value {
        case .reference(let name, let action): return action == .deleteSelf && name == target
        case .list(let elements): return elements.contains { references($0, target) }
        case .string, .int, .double, .bytes, .date, .location, .asset: return false
        }
    }
}
