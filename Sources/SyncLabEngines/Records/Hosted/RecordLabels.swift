import SyncLabKernel
import SyncLabProtocol

/// The platform's memory of write ids for a hosted records app (SPEC §9), so no app code knows
/// about them: per item (a record's existence or one field), the values the app was shown with
/// the write behind each, and what the user sees now. Durable with the device (it stands for the
/// identity of what is on the app's disk), dropped by `app.delete`.
public struct RecordLabels: Sendable {
    /// One value and the write behind it (nil: absent with no write behind it).
    struct Labeled: Hashable, Sendable {
        /// First: Swift lays the parts out in this order, and with the date (8 bytes, aligned)
        /// before the value (18 bytes) a label is 40 bytes, not 48 (session 14). Every device
        /// keeps up to `memory` labels per item of every record it shows, and the fetched-record
        /// path reads and writes them out of the cache: fewer bytes, fewer cache lines.
        var modifiedAt: LocalInstant
        var value: ItemValue
        var write: WriteID?
        /// Shown as part of a record the cloud had (fetched, saved, in a failure).
        var fromCloud = false

        init(value: ItemValue, write: WriteID?, modifiedAt: LocalInstant, fromCloud: Bool = false) {
            self.modifiedAt = modifiedAt; self.value = value; self.write = write; self.fromCloud = fromCloud
        }
    }

    /// Per item: the values the app was shown (fetched, in failures, the user's edits, its own
    /// writes), most recent last, at most `memory`; and what the user sees now (the last view
    /// reported; nil: absent).
    struct Entry: Sendable {
        /// The values shown before the most recent, oldest first.
        private(set) var earlier: [Labeled] = []
        /// The most recent value shown, kept in the entry itself: a record's existence is shown
        /// again on every fetch of it, and the view compares with the latest value, so the hot
        /// paths read and write it without touching the list of earlier ones.
        private(set) var latest: Labeled?
        var view: Labeled?

        /// An entry shown nothing yet.
        init() {}

        /// An entry that was shown `shown` (oldest first).
        init(shown: [Labeled]) {
            latest = shown.last
            earlier = Array(shown.dropLast())
        }

        /// The values shown, oldest first.
        var shown: [Labeled] { latest.map { earlier + [$0] } ?? earlier }

        /// The most recent value shown that satisfies `matches`.
        func lastShown(where matches: (Labeled) -> Bool) -> Labeled? {
            if let latest, matches(latest) { return latest }
            return earlier.last(where: matches)
        }

        /// Forgets the values shown (the view stays).
        mutating func forgetShown() {
            earlier = []
            latest = nil
        }

        /// Adds `labeled` as the most recent value shown (once; a value and write shown again
        /// keeps having come from the cloud), at most `memory` values in all.
        mutating func add(_ labeled: Labeled) {
            var labeled = labeled
            // The write first: comparing it is cheaper than comparing the value.
            if let current = latest, current.write == labeled.write && current.value == labeled.value {
                // Shown again as the most recent (a record's existence on every fetch of it): in place.
                labeled.fromCloud = labeled.fromCloud || current.fromCloud
                latest = labeled
                return
            }
            // A value and write are remembered once: one shown earlier moves up to the latest.
            if !earlier.isEmpty, let index = earlier.firstIndex(where: { $0.write == labeled.write && $0.value == labeled.value }) {
                labeled.fromCloud = labeled.fromCloud || earlier[index].fromCloud
                earlier.remove(at: index)
            }
            if let current = latest {
                if earlier.count + 1 >= RecordLabels.memory { earlier.removeFirst() }
                earlier.append(current)
            }
            latest = labeled
        }
    }

    /// A record of an account, as the label memory files it (its items' `account` and `name`).
    struct RecordKey: Hashable, Sendable {
        var account: AccountID
        var name: String

        init(_ item: ItemKey) { account = item.account; name = item.name }
    }

    // `RecordEntry` (one record's items, and the server versions shown it not yet applied to
    // them) is in RecordLabels+RecordEntry.swift.

    /// Whether `record` is what `entry` shows: its existence with its type and exactly its
    /// fields, with their values, and its change tag.
    static func shows(_ record: HostedViewRecord, in entry: RecordEntry) -> Bool {
        guard entry.changeTag == record.changeTag else { return false }
        var shownFields = 0
        for index in entry.items.indices {
            let field = entry.items[index].field
            guard let view = entry.items[index].entry.view else { continue }
            if field.isEmpty {
                guard view.value == .recordExists(type: record.type) else { return false }
            } else {
                guard let value = record[field: field], view.value == .field(value) else { return false }
                shownFields += 1
            }
        }
        return entry.view("") != nil && shownFields == record.fieldCount
    }

    /// Per record: its items' entries (one hash per record, not per item).
    var records: [RecordKey: RecordEntry] = [:]

    /// Zone → the write of the user's last `zone.delete` of it through the app.
    var zoneDeletes: [String: WriteID] = [:]
    /// The user's writes on this device whose effect the app shows later (a zone deleted from
    /// Settings): shown, they are this device's own writes, built on what it showed before.
    var ownLater: Set<WriteID> = []
    /// Zones the user deleted in Settings on this device, not yet acknowledged by the cloud.
    var settingsDeletes: [ZoneDeletion] = []
    /// Items the app shows with a write of this device's that no record from the cloud has
    /// carried yet: at a launch, those of records with no pending save are never going to be
    /// sent unless the app adds them again (the trace says so).
    var unconfirmed: [ItemKey: WriteID] = [:]
    /// Writes already reported as rejected by the cloud (a save refused again is reported once).
    var rejected: Set<WriteID> = []
    /// Records (their existence items) the cloud no longer has as far as this device knows (a
    /// fetched deletion, or `unknownItem` on a save) while the app had an edit of them to send:
    /// the app's next save of one as a new record is a re-upload, re-stamped by a write made
    /// after the delete, and the conflict is reported once. Cleared when the cloud shows the
    /// record again.
    var goneInCloud: Set<ItemKey> = []
    /// Fields both sides changed to the same value in a conflict the app was shown, with the
    /// merged write the app's value carries, until the cloud carries it (`SameValueMerge`).
    var sameValueMerges: [ItemKey: SameValueMerge] = [:]
    /// Items the app does not show that the checker was last told are absent by a write (a
    /// delete, a removal, a fetched record without the field), with that write: a fetched
    /// removal of a field the app never showed is reported once, by its write, as the built-in
    /// engine reports it (`SyncEnginePlatform.compareView`). Mostly empty.
    var absentShown: [ItemKey: WriteID] = [:]
    /// Items remembered since the view was last read: they may show a newer write now.
    var touched: [Touched] = []

    /// An item remembered since the view was last read (`touched`); for a server record shown
    /// to the app, its existence and every field the cloud sent (`server`'s, every one with a
    /// value: a record that removes a field is touched item by item), in that dictionary's
    /// order: one entry per record, not one per item.
    struct Touched: Sendable {
        var key: ItemKey
        var server: ServerRecord?
    }

    /// How many values per item are remembered: a bound on the platform's memory.
    static let memory = 8

    public init() {}

    /// Remembers that the app was shown `value` for `item`, made by `write`.
    mutating func remember(_ item: ItemKey, _ value: ItemValue, _ write: WriteID, at modifiedAt: LocalInstant, fromCloud: Bool = false) {
        touched.append(Touched(key: item, server: nil))
        // In place (one lookup, no copy of the list out of the dictionary and back).
        RecordLabels.remember(item.field, Labeled(value: value, write: write, modifiedAt: modifiedAt, fromCloud: fromCloud), in: &records[RecordKey(item), default: RecordEntry()])
    }

    /// `remember` for the items of one record, its entry already looked up (`withRecord`): the
    /// caller appends the items to `touched`.
    static func remember(_ field: String, _ labeled: Labeled, in record: inout RecordEntry) {
        let index = record.positionAdding(field)
        record.items[index].entry.add(labeled)
    }

    /// Runs `body` on the entry of the record of `existence` where it lies (added when new).
    mutating func withRecord<Result>(_ existence: ItemKey, _ body: (inout RecordEntry) -> Result) -> Result {
        body(&records[RecordKey(existence), default: RecordEntry()])
    }

    /// The write of `value` on `item` if the app was shown it (the most recent such).
    func known(_ item: ItemKey, _ value: ItemValue) -> Labeled? { RecordLabels.known(in: entry(item), value) }

    /// `known` for the item at `position` of the record at `index`: its latest value read in
    /// place, the rest of its entry only when that is not the value.
    func known(at index: [RecordKey: RecordEntry].Index, _ position: Int, _ value: ItemValue) -> Labeled? {
        if let latest = records.values[index].latest(at: position), latest.value == value { return latest }
        return RecordLabels.known(in: records.values[index].items[position].entry, value)
    }

    /// The entry of `item` (nil: never remembered).
    func entry(_ item: ItemKey) -> Entry? { records[RecordKey(item)]?.entry(item.field) }

    /// `known` for an item's entry already looked up. `ownOnly`: only a value not from the cloud
    /// (the existence of a record the app made and never saved: every creation of a record of
    /// that type has the same value, so another device's, shown in a failure, is not this one).
    static func known(in entry: Entry?, _ value: ItemValue, ownOnly: Bool = false) -> Labeled? {
        guard let entry else { return nil }
        if let hit = entry.lastShown(where: { $0.value == value && !(ownOnly && $0.fromCloud) }) { return hit }
        if let current = entry.view, current.value == value, !(ownOnly && current.fromCloud) { return current }
        return nil
    }

    /// Every write the app has seen for `item`: what its own write there is built on.
    func seen(_ item: ItemKey) -> [WriteID] {
        guard let entry = entry(item) else { return [] }
        var writes = entry.shown.compactMap(\.write)
        if let write = entry.view?.write { writes.append(write) }
        return writes.sortedUnique()
    }

    /// What the user sees of `item` now (nil: absent).
    func view(_ item: ItemKey) -> Labeled? { records[RecordKey(item)]?.view(item.field) }

    /// The most recent value the app was shown for `item`.
    func latestShown(_ item: ItemKey) -> Labeled? { entry(item)?.latest }

    /// Shows `labeled` for `item` (nil: absent).
    mutating func setView(_ item: ItemKey, _ labeled: Labeled?) {
        if labeled == nil {
            guard let index = records.index(forKey: RecordKey(item)), let position = records.values[index].position(of: item.field) else { return }
            records.values[index].items[position].entry.view = nil
        } else {
            withRecord(item) { record in
                let position = record.positionAdding(item.field)
                record.items[position].entry.view = labeled
            }
        }
    }

    /// What the user sees, item by item, in no particular order.
    var viewEntries: [(key: ItemKey, labeled: Labeled)] {
        var entries: [(key: ItemKey, labeled: Labeled)] = []
        for (record, items) in records {
            for (field, entry) in items.items {
                if let view = entry.view { entries.append((ItemKey(account: record.account, store: .records, name: record.name, field: field), view)) }
            }
        }
        return entries
    }

    /// The items the user sees (not absent), in no particular order.
    var viewKeys: [ItemKey] { viewEntries.map(\.key) }
}
