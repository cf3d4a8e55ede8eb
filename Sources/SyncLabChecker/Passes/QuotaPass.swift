import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `quotaViolation` (SPEC §6): every write rejected or rolled back for a limit, with the
/// limit's name; one per (write, limit), listing every item the write had.
struct QuotaPass {
    private(set) var anomalies: [Anomaly] = []
    /// The anomaly of each (write, limit) so far.
    private var anomalyIndex: [QuotaKey: Int] = [:]

    private struct QuotaKey: Hashable {
        var write: Int32
        var limit: String
    }

    mutating func rejected(_ write: WriteID, item: ItemKey, error: String, limit: String?, at time: SimInstant, _ context: inout CheckContext) {
        guard let limit else { return }
        let index = context.writeIndex(write)
        let key = QuotaKey(write: index, limit: limit)
        if let existing = anomalyIndex[key] {
            let name = item.field.isEmpty ? item.name : "\(item.name).\(item.field)"
            if anomalies[existing].items.isEmpty {
                anomalies[existing].items = [anomalies[existing].field.map { "\(anomalies[existing].item).\($0)" } ?? anomalies[existing].item]
            }
            if !anomalies[existing].items.contains(name) { anomalies[existing].items.append(name) }
            return
        }
        anomalyIndex[key] = anomalies.count
        let operation = context.operation(index)
        let device = context.deviceName(operation?.device ?? write.device)
        anomalies.append(context.anomaly(.quotaViolation, item, device: device, at: time,
            explanation: "\(device)'s write \(context.name(index)) (\(operation?.summary ?? context.derivedWhy(index) ?? "engine write")) was refused with \(error): it would break the \(limit) limit.",
            write: context.name(index), limit: limit))
    }
}
