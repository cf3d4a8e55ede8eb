import SyncLabProtocol
import SyncLabHistory

/// `causalityViolation` (SPEC §6): a last-writer-wins comparison that chose a write *v* over
/// a write *w* although *v* ∈ observed(*w*): clock skew inverted the order.
struct CausalityPass {
    private(set) var anomalies: [Anomaly] = []
    /// Per dense write index, the decision (index in `CheckContext.decisions`) that inverted it; -1 if none.
    private(set) var invertedBy: [Int32] = []

    mutating func run(_ context: inout CheckContext) {
        invertedBy = Array(repeating: -1, count: context.writes.count)
        for (index, decision) in context.decisions.enumerated() where invertedBy[Int(decision.over)] < 0 {
            guard context.graph.observes(decision.over, decision.chosen) else { continue }
            invertedBy[Int(decision.over)] = Int32(index)
            let over = context.name(decision.over), chosen = context.name(decision.chosen)
            anomalies.append(context.anomaly(.causalityViolation, context.items[decision.item],
                device: context.deviceName(context.graph[decision.over].device), at: decision.at,
                explanation: "Last-writer-wins (\(decision.rule)) kept \(chosen) over \(over) although \(over) was made after seeing it: clock skew inverted the order.",
                write: over, replacedBy: chosen))
        }
    }
}
