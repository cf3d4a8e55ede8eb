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
    }

    /// A deleted record: the delete's write and the sequence it happened at.
    struct Tombstone: Hashable, Sendable {
        var write: WriteID
        var sequence: UInt64
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
    var records: [String: Entry] = [:]
    var tombstones: [String: Tombstone] = [:]

    init(incarnation: UInt64, sequence: UInt64) {
        self.incarnation = incarnation; self.lastChangeSequence = sequence
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
