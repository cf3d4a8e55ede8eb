import SyncLabProtocol

/// The records one reading of a hosted app's view compared whole, by item name (`ZONE/NAME`),
/// each with the fields it no longer shows that the reading compares too (absent).
///
/// A reading mostly compares one or two records (those a fetch or the user's action changed):
/// a short list scanned by name costs less than a dictionary made, hashed into and freed on
/// every reading (every device reads back every record it fetches). Past `scanLimit` records
/// (a reading that compares everything) the names are also kept in a dictionary of positions,
/// so a lookup is never a scan of a long list.
struct HostedReadRecords {
    private struct Entry {
        var name: String
        var record: HostedViewRecord?
        var absent: [String] = []
        /// The record is a server version shown as it came over the view of an earlier one
        /// (`RecordLabels.RecordEntry.pendingShown`): the two, compared version to version.
        var versions: (anchor: ServerRecord, pending: ServerRecord)?
    }

    private var entries: [Entry] = []
    /// Name → position in `entries`, kept once there are more than `scanLimit` entries.
    private var positions: [String: Int]?

    static let scanLimit = 16

    var isEmpty: Bool { entries.isEmpty }

    /// The record read under `name` (nil: none, or removed in this reading).
    subscript(name: String) -> HostedViewRecord? {
        get { slot(of: name).flatMap { entries[$0].record } }
        set {
            if let position = slot(of: name) {
                entries[position].record = newValue
                entries[position].absent = []
                entries[position].versions = nil
            } else if let newValue {
                set(newValue, for: name)
            }
        }
    }

    /// Reads `record` under `name` (replacing what was read there, with its absent fields) and
    /// returns its position.
    @discardableResult
    mutating func set(_ record: HostedViewRecord, for name: String, versions: (anchor: ServerRecord, pending: ServerRecord)? = nil) -> Int {
        if let position = slot(of: name) {
            entries[position].record = record
            entries[position].absent = []
            entries[position].versions = versions
            return position
        }
        entries.append(Entry(name: name, record: record, versions: versions))
        if positions != nil {
            positions?[name] = entries.count - 1
        } else if entries.count > HostedReadRecords.scanLimit {
            var index: [String: Int] = [:]
            for (position, entry) in entries.enumerated() { index[entry.name] = position }
            positions = index
        }
        return entries.count - 1
    }

    /// The position of the record read under `name` (nil: none, or removed in this reading).
    func position(of name: String) -> Int? {
        guard let position = slot(of: name) else { return nil }
        return entries.withUnsafeBufferPointer { HostedReadRecords.part(position, of: $0, \.record).pointee == nil } ? nil : position
    }

    /// The record read at `position`.
    func record(at position: Int) -> HostedViewRecord? { entries[position].record }

    /// Whether the record read at `position` shows field `field`, read in place.
    func shows(field: String, at position: Int) -> Bool {
        entries.withUnsafeBufferPointer { HostedReadRecords.part(position, of: $0, \.record).pointee?.shows(field: field) == true }
    }

    /// Whether the record read at `position` shows every field of `fields`, which all have a
    /// value (false: not known to), read in place: true when it shows the very fields the
    /// cloud sent (the same dictionary, compared by identity first).
    func showsEvery(ofValued fields: [String: StoredField], at position: Int) -> Bool {
        entries.withUnsafeBufferPointer { HostedReadRecords.part(position, of: $0, \.record).pointee?.showsEvery(ofValued: fields) == true }
    }

    /// The versions the record at `position` was read as (`set(_:for:versions:)`), nil when
    /// none or when the reading compares a field it does not show (then item by item).
    func versions(at position: Int) -> (anchor: ServerRecord, pending: ServerRecord)? {
        entries.withUnsafeBufferPointer { entries in
            guard HostedReadRecords.part(position, of: entries, \.absent).pointee.isEmpty else { return nil }
            return HostedReadRecords.part(position, of: entries, \.versions).pointee
        }
    }

    /// Whether the record at `position` was read as a server version (`versions(at:)`, absent
    /// fields or not).
    func readAsVersions(at position: Int) -> Bool {
        entries.withUnsafeBufferPointer { HostedReadRecords.part(position, of: $0, \.versions).pointee != nil }
    }

    /// The fields the record at `position` does not show that the reading compares (as absent),
    /// in the order noted, possibly more than once.
    func absentFields(at position: Int) -> [String] { entries[position].absent }

    /// Notes field `field` of the record at `position` as compared absent.
    mutating func noteAbsent(_ field: String, at position: Int) { entries[position].absent.append(field) }

    /// The entry of `name`, read or removed in this reading. The names are compared in place:
    /// reading an entry through the array copies its record first (retaining its every part).
    private func slot(of name: String) -> Int? {
        if let positions { return positions[name] }
        return entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where HostedReadRecords.part(index, of: entries, \.name).pointee == name { return index }
            return nil
        }
    }

    /// A pointer to one part of the entry at `index`.
    @inline(__always)
    private static func part<Part>(_ index: Int, of entries: UnsafeBufferPointer<Entry>, _ part: KeyPath<Entry, Part>) -> UnsafePointer<Part> {
        (entries.baseAddress! + index).pointer(to: part)!
    }
}
