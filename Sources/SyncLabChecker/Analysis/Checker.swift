import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// The oracle (SPEC §6): judges a run from its `History` alone.
///
/// Built like Elle's checkers: one scan over the facts builds the write graph and what each
/// device showed over time (`CheckContext`), then one small pass per concern judges it. The
/// passes that judge moments (notifications, atomicity, isolation, quota) ride along the scan
/// and see each batch end; the others run on the finished graph:
///
/// | pass | finds |
/// |---|---|
/// | `NotificationPass` | `missedNotification`, `spuriousNotification`, notification counts |
/// | `AtomicityPass` | `atomicityViolation` |
/// | `IsolationPass` | `isolationViolation` |
/// | `QuotaPass` | `quotaViolation` |
/// | `CausalityPass` | `causalityViolation` |
/// | `SurvivalPass` + `LostUpdatePass` | `lostUpdate` |
/// | `ResurrectionPass` | `resurrection` |
/// | `DivergencePass` | `divergence` |
public struct Checker {
    public init() {}

    /// - Complexity: O(facts) hashes for the scan, plus what the survival marks and the
    ///   explanations' reachability questions visit.
    public func check(_ history: History) -> CheckReport {
        var moments = MomentPasses(deviceCount: history.deviceNames.count, log: history.facts)
        var context = Checker.scan(history, &moments)

        var causality = CausalityPass(), survival = SurvivalPass(), lostUpdates = LostUpdatePass()
        var resurrections = ResurrectionPass(), divergence = DivergencePass()
        causality.run(&context)
        survival.run(&context)
        lostUpdates.run(&context, lostItems: survival.lostItems, invertedBy: causality.invertedBy)
        resurrections.run(&context)
        divergence.run(context)

        // Each kind comes from one pass, in that pass's order; the sort is stable, so equal
        // anomalies keep it.
        var anomalies = moments.notifications.anomalies + moments.atomicity.anomalies + moments.isolation.anomalies + moments.quota.anomalies
        anomalies += causality.anomalies + lostUpdates.anomalies + resurrections.anomalies + divergence.anomalies
        anomalies.sort(by: Anomaly.precedes)

        // Open document conflicts at the end: one per conflict version the cloud still keeps.
        // Each conflict the cloud detects keeps one version (the loser), and resolving removes
        // it, so under keepVersions, which resolves nothing, every conflict counted in
        // `conflicts` is still open. (Counting documents in conflict said 1 open of 3 when three
        // devices' versions all stood on one document.)
        var openConflicts = 0
        for survivors in history.survivingWrites {
            for write in survivors {
                if let index = context.graph.existingIndex(of: write), let item = context.writes[Int(index)].touches.first?.item,
                   context.items[item].store == .documents { openConflicts += 1 }
            }
        }
        let writes = history.operations.reduce(0) { count, operation in
            guard operation.outcome == .accepted, let index = context.graph.existingIndex(of: operation.write) else { return count }
            return count + (context.writes[Int(index)].touches.isEmpty ? 0 : 1)
        }
        return CheckReport(anomalies: anomalies, writes: writes, lostUpdates: lostUpdates.anomalies.count, conflicts: context.conflictCount,
                           unresolvedConflicts: openConflicts, quotaViolations: moments.quota.anomalies.count,
                           converged: divergence.anomalies.isEmpty, notifications: moments.notifications.total,
                           notificationCounts: moments.notifications.notificationCounts(context))
    }

    /// The passes that judge moments, fed by the scan as it goes.
    struct MomentPasses {
        var notifications: NotificationPass
        var atomicity = AtomicityPass()
        var isolation = IsolationPass()
        var quota = QuotaPass()

        init(deviceCount: Int, log: FactLog) { notifications = NotificationPass(deviceCount: deviceCount, log: log) }

        /// One visible change, to every pass that judges it. The context is lent by address
        /// (`inout`, only read) and the passes are given what they read: lent as a plain
        /// argument, the scan's ~600-byte context was copied whole, a `memcpy` per visible
        /// fact, even with the call inlined (issue 13, session 12).
        @inline(__always) mutating func visible(_ step: VisibleStep, at: SimInstant, _ context: inout CheckContext) {
            atomicity.visible(step, writes: context.writes)
            notifications.visible(step, at: at, items: context.items)
            isolation.visible(step, at: at, &context)
        }
    }

    /// The one scan over the facts: builds the context (the write graph, what each device
    /// shows) and feeds the moment passes each visible change and each batch end.
    static func scan(_ history: History, _ moments: inout MomentPasses) -> CheckContext {
        var context = CheckContext(history)
        var currentBatch = -1
        // The facts' batch and time, read once per run of facts that share them (`StoredFact.run`).
        var currentRun: Int32 = -1
        var at = SimInstant.start
        // The facts are read as the log keeps them (plain `StoredFact`s, copied without a
        // retain): a `visible` fact goes to the context with its item's log id, which the
        // context maps to its own item id once per item instead of hashing the item per fact;
        // only the other facts are made whole (issue 13, session 9).
        let log = history.facts
        for facts in log.chunks {
            for index in facts.indices {
                let stored = facts[index]
                if stored.run != currentRun {
                    let run = log.run(stored.run)
                    currentRun = stored.run
                    at = run.at
                    // A batch is one step of the world (see `FactRecord`): its moment is judged when it ends.
                    if run.batch != currentBatch {
                        moments.notifications.endBatch(at: at, &context)
                        moments.atomicity.endBatch(at: at, &context)
                        currentBatch = run.batch
                    }
                }
                if stored.isVisible {
                    // The cloud's visible facts say nothing of what a device shows.
                    guard let device = stored.device else { continue }
                    let step = context.visible(device, context.itemID(logItem: stored.item, of: log), stored, in: log)
                    moments.visible(step, at: at, &context)
                    continue
                }
                if stored.isNotification {
                    if let device = stored.device { moments.notifications.notified(log.storedNotification(of: stored), device: device, at: at) }
                    continue
                }
                let fact = log.record(stored)
                if let step = context.apply(fact) {
                    moments.visible(step, at: at, &context)
                    continue
                }
                switch fact.kind {
                case .notification:
                    // Never here: the log keeps every notification as one (`isNotification`, above).
                    break
                case .observation(.rejected(let write, let item, let error, let limit)):
                    moments.quota.rejected(write, item: item, error: error, limit: limit, at: at, &context)
                case .observation, .accountChanged:
                    break
                }
            }
        }
        let end = history.facts.last?.at ?? .start
        moments.notifications.endBatch(at: end, &context)
        moments.atomicity.endBatch(at: end, &context)
        context.finish()
        return context
    }
}
