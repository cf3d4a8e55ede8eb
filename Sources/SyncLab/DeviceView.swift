internal import SyncLabProtocol
internal import SyncLabResult
internal import SyncLabSimulation

/// What a device's app shows at one moment, item by item (SPEC §9): KVS keys, document paths
/// and record fields, values written as in scenario files.
public struct DeviceView: Hashable, Sendable {
    /// KVS key → value.
    public var kvs: [String: ScenarioValue] = [:]
    /// Document path → content (`{"$size": BYTES}` for synthetic content).
    public var documents: [String: ScenarioValue] = [:]
    /// `ZONE/NAME` → field → value, every record shown (private and public databases).
    public var records: [String: [String: ScenarioValue]] = [:]

    init(entries: [ViewEntry]) {
        for entry in entries {
            let value = ScenarioValue(ValueJSON.json(entry.value))
            switch entry.item.store {
            case .kvs: kvs[entry.item.name] = value
            case .documents: documents[entry.item.name] = value
            case .records:
                // The record's existence is the item with an empty field.
                if entry.item.field.isEmpty {
                    if case .absent = entry.value {} else if records[entry.item.name] == nil { records[entry.item.name] = [:] }
                } else {
                    records[entry.item.name, default: [:]][entry.item.field] = value
                }
            }
        }
    }
}

extension DeviceView {
    /// A device that shows nothing (crashed, uninstalled, or with no data).
    public static let empty = DeviceView(entries: [])
}
