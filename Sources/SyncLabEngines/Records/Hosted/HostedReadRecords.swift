/// The records one reading of a hosted app's view compared whole, by item name (`ZONE/NAME`).
///
/// A reading mostly compares one or two records (those a fetch or the user's action changed):
/// a short list scanned by name costs less than a dictionary made, hashed into and freed on
/// every reading (every device reads back every record it fetches). Past `scanLimit` records
/// (a reading that compares everything) the names are also kept in a dictionary of positions,
/// so a lookup is never a scan of a long list.
struct HostedReadRecords {
    private var entries: [(name: String, record: HostedViewRecord?)] = []
    /// Name → position in `entries`, kept once there are more than `scanLimit` entries.
    private var positions: [String: Int]?

    static let scanLimit = 16

    var isEmpty: Bool { entries.isEmpty }

    /// The record read under `name` (nil: none, or removed in this reading).
    subscript(name: String) -> HostedViewRecord? {
        get { position(of: name).flatMap { entries[$0].record } }
        set {
            if let position = position(of: name) {
                entries[position].record = newValue
            } else if newValue != nil {
                entries.append((name, newValue))
                if positions != nil {
                    positions?[name] = entries.count - 1
                } else if entries.count > HostedReadRecords.scanLimit {
                    var index: [String: Int] = [:]
                    for (position, entry) in entries.enumerated() { index[entry.name] = position }
                    positions = index
                }
            }
        }
    }

    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return entries.firstIndex { $0.name == name }
    }
}
