import SyncLabKernel
import SyncLabProtocol

/// `isolationViolation` (SPEC §6): a device that showed data of an account it was not signed
/// into, or a write made in one account shown as data of another.
struct IsolationPass {
    private(set) var anomalies: [Anomaly] = []

    mutating func visible(_ step: VisibleStep, at time: SimInstant, _ context: CheckContext) {
        let item = context.items[step.item]
        guard item.account != .publicDatabase else { return }
        let history = context.history, name = context.deviceName(step.device)
        let write = step.write >= 0 ? context.name(step.write) : nil
        if let current = context.accountOf[Int(step.device.index)], current != item.account, step.value != .absent {
            anomalies.append(context.anomaly(.isolationViolation, item, device: name, at: time,
                explanation: "\(name), signed into \(history.accountName(current)), showed \(item.displayName) of account \(history.accountName(item.account)).",
                write: write))
        } else if step.write >= 0, let writer = context.operation(step.write), let writerAccount = writer.account, writerAccount != item.account {
            anomalies.append(context.anomaly(.isolationViolation, item, device: name, at: time,
                explanation: "\(name) showed \(context.name(step.write)), a write made in account \(history.accountName(writerAccount)), as data of account \(history.accountName(item.account)).",
                write: write))
        }
    }
}
