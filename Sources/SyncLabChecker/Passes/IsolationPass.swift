import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `isolationViolation` (SPEC §6): a device that showed data of an account it was not signed
/// into, or a write made in one account shown as data of another.
struct IsolationPass {
    private(set) var anomalies: [Anomaly] = []

    /// A visible change. The context is lent by address (`inout`, only read; see
    /// `Checker.MomentPasses.visible`): only a step that shows a violation lends it on whole.
    @inline(__always) mutating func visible(_ step: VisibleStep, at time: SimInstant, _ context: inout CheckContext) {
        let account = context.accountOfItem[Int(step.item)]
        guard account != .publicDatabase else { return }
        if let current = context.accountOf[Int(step.device.index)], current != account, step.value != ShownTable.absentValue {
            showedForeign(step, signedInto: current, at: time, context)
        } else if step.write >= 0, let writerAccount = context.writes[Int(step.write)].operationAccount, writerAccount != account {
            showedWrongWriter(step, madeIn: writerAccount, at: time, context)
        }
    }

    /// A device showed an item of an account it was not signed into.
    private mutating func showedForeign(_ step: VisibleStep, signedInto current: AccountID, at time: SimInstant, _ context: CheckContext) {
        let item = context.items[step.item], history = context.history
        let name = context.deviceName(step.device)
        anomalies.append(context.anomaly(.isolationViolation, item, device: name, at: time,
            explanation: "\(name), signed into \(history.accountName(current)), showed \(item.displayName) of account \(history.accountName(item.account)).",
            write: step.write >= 0 ? context.name(step.write) : nil))
    }

    /// A device showed a write made in one account as data of another.
    private mutating func showedWrongWriter(_ step: VisibleStep, madeIn writerAccount: AccountID, at time: SimInstant, _ context: CheckContext) {
        let item = context.items[step.item], history = context.history
        let name = context.deviceName(step.device), write = context.name(step.write)
        anomalies.append(context.anomaly(.isolationViolation, item, device: name, at: time,
            explanation: "\(name) showed \(context.name(step.write)), a write made in account \(history.accountName(writerAccount)), as data of account \(history.accountName(item.account)).",
            write: write))
    }
}
