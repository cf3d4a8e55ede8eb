import SimKernel
import SyncProtocol

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
    }

    /// A deleted record: the delete's write and the sequence it happened at.
    struct Tombstone: Hashable, Sendable {
        var write: WriteID
        var sequence: UInt64
    }

    /// How many earlier versions of a record are kept as possible ancestors.
    static let historyDepth = 4

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
