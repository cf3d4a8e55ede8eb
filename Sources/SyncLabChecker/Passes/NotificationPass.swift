import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `missedNotification` / `spuriousNotification` (SPEC §6), and the notification counts.
///
/// Judged per batch: within one engine step, the KVS keys whose visible value a fetch changed
/// must be exactly the keys its `serverChange` / `initialSyncChange` notifications listed.
struct NotificationPass {
    private(set) var anomalies: [Anomaly] = []
    /// Notifications delivered to apps.
    private(set) var total = 0
    /// Per device name, per reason.
    private var counts: [String: [String: Int]] = [:]
    /// This batch's keys changed by a fetch, and listed, per device index.
    private var changed: [Int32: Set<String>] = [:]
    private var listed: [Int32: Set<String>] = [:]
    /// When each device was last notified (or first changed by a fetch, before any notification).
    private var notifiedAt: [Int32: SimInstant] = [:]

    mutating func notified(_ notification: AppNotification, device: DeviceID, at time: SimInstant, _ context: CheckContext) {
        total += 1
        counts[context.deviceName(device), default: [:]][notification.reason, default: 0] += 1
        if notification.store == .kvs && (notification.reason == "serverChange" || notification.reason == "initialSyncChange") {
            listed[device.index, default: []].formUnion(notification.items)
            notifiedAt[device.index] = time
        }
    }

    mutating func visible(_ step: VisibleStep, at time: SimInstant, _ context: CheckContext) {
        let item = context.items[step.item]
        guard step.cause == .fetch && item.store == .kvs && step.previousValue != step.value else { return }
        changed[step.device.index, default: []].insert(item.name)
        notifiedAt[step.device.index] = notifiedAt[step.device.index] ?? time
    }

    /// The batch ended: compares what changed with what was listed, device by device.
    mutating func endBatch(at time: SimInstant, _ context: CheckContext) {
        guard !changed.isEmpty || !listed.isEmpty else { return }
        for device in changed.keys.sorted() {
            for key in (changed[device] ?? []).subtracting(listed[device] ?? []).sorted() {
                let name = context.deviceName(DeviceID(device))
                anomalies.append(anomaly(.missedNotification, device, key, at: time, context,
                    "\(name) fetched a new value of \"\(key)\" but its change notification did not list the key."))
            }
        }
        for device in listed.keys.sorted() {
            for key in (listed[device] ?? []).subtracting(changed[device] ?? []).sorted() {
                let name = context.deviceName(DeviceID(device))
                anomalies.append(anomaly(.spuriousNotification, device, key, at: time, context,
                    "\(name)'s change notification listed \"\(key)\" although its visible value did not change."))
            }
        }
        changed.removeAll(keepingCapacity: true); listed.removeAll(keepingCapacity: true)
    }

    private func anomaly(_ kind: AnomalyKind, _ device: Int32, _ key: String, at time: SimInstant, _ context: CheckContext, _ explanation: String) -> Anomaly {
        Anomaly(kind: kind, store: .kvs, account: context.accountLabel(context.accountOf[Int(device)]), item: key, field: nil,
                device: context.deviceName(DeviceID(device)), at: notifiedAt[device] ?? time, explanation: explanation)
    }

    /// Notification counts per (device name, reason), sorted.
    var notificationCounts: [NotificationCount] {
        var result: [NotificationCount] = []
        for device in counts.keys.sorted() {
            for reason in (counts[device] ?? [:]).keys.sorted() {
                result.append(NotificationCount(device: device, reason: reason, count: counts[device]?[reason] ?? 0))
            }
        }
        return result
    }
}
