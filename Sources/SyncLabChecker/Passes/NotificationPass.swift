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
    /// Per device index, the count per reason id of the log (few reasons: a short list beats hashing).
    private var counts: [[(reason: Int32, count: Int)]]
    /// Per reason id of the log: does a KVS notification with it list the keys a fetch changed
    /// (`serverChange`, `initialSyncChange`)?
    private let listsChangedKeys: [Bool]
    /// This batch's (device index, key) pairs changed by a fetch, and listed; usually one device
    /// and a key or two, so arrays sorted at the batch's end, not sets per device.
    private var changed: [(device: Int32, key: String)] = []
    private var listed: [(device: Int32, key: String)] = []
    /// When each device was last notified (or first changed by a fetch, before any notification),
    /// by device index; nil: never.
    private var notifiedAt: [SimInstant?]

    init(deviceCount: Int, log: FactLog) {
        counts = Array(repeating: [], count: deviceCount)
        notifiedAt = Array(repeating: nil, count: deviceCount)
        listsChangedKeys = (0..<log.reasonCount).map { id in
            let reason = log.reason(Int32(id))
            return reason == "serverChange" || reason == "initialSyncChange"
        }
    }

    /// A notification of the log (`FactLog.storedNotification(of:)`), delivered to `device`.
    mutating func notified(_ notification: StoredNotification, device: DeviceID, at time: SimInstant, _ log: FactLog) {
        total += 1
        let index = Int(device.index)
        if let slot = counts[index].firstIndex(where: { $0.reason == notification.reason }) {
            counts[index][slot].count += 1
        } else {
            counts[index].append((notification.reason, 1))
        }
        if notification.store == .kvs && listsChangedKeys[Int(notification.reason)] {
            for position in notification.items { listed.append((device.index, log.name(log.notificationItem(position)))) }
            notifiedAt[index] = time
        }
    }

    mutating func visible(_ step: VisibleStep, at time: SimInstant, _ context: CheckContext) {
        guard step.cause == .fetch else { return }
        let item = context.items[step.item]
        guard item.store == .kvs && step.previousValue != step.value else { return }
        changed.append((step.device.index, item.name))
        let index = Int(step.device.index)
        if notifiedAt[index] == nil { notifiedAt[index] = time }
    }

    /// The batch ended: compares what changed with what was listed, device by device (devices
    /// in index order, keys sorted; every missed key before every spurious one).
    mutating func endBatch(at time: SimInstant, _ context: CheckContext) {
        guard !changed.isEmpty || !listed.isEmpty else { return }
        let byDeviceThenKey: ((device: Int32, key: String), (device: Int32, key: String)) -> Bool = {
            $0.device != $1.device ? $0.device < $1.device : $0.key < $1.key
        }
        changed.sort(by: byDeviceThenKey); listed.sort(by: byDeviceThenKey)
        // The usual batch: a fetch that changed exactly the keys it listed.
        if changed.count == listed.count && zip(changed, listed).allSatisfy({ $0.device == $1.device && $0.key == $1.key }) {
            changed.removeAll(keepingCapacity: true); listed.removeAll(keepingCapacity: true)
            return
        }
        // One merge of the two sorted lists: what only `changed` has was missed, what only `listed` has is spurious.
        let changedKeys = unique(changed), listedKeys = unique(listed)
        var missed: [(device: Int32, key: String)] = [], spurious: [(device: Int32, key: String)] = []
        var left = 0, right = 0
        while left < changedKeys.count || right < listedKeys.count {
            if right == listedKeys.count || (left < changedKeys.count && byDeviceThenKey(changedKeys[left], listedKeys[right])) {
                missed.append(changedKeys[left]); left += 1
            } else if left == changedKeys.count || byDeviceThenKey(listedKeys[right], changedKeys[left]) {
                spurious.append(listedKeys[right]); right += 1
            } else {
                left += 1; right += 1
            }
        }
        for pair in missed {
            let name = context.deviceName(DeviceID(pair.device))
            anomalies.append(anomaly(.missedNotification, pair, at: time, context,
                "\(name) fetched a new value of \"\(pair.key)\" but its change notification did not list the key."))
        }
        for pair in spurious {
            let name = context.deviceName(DeviceID(pair.device))
            anomalies.append(anomaly(.spuriousNotification, pair, at: time, context,
                "\(name)'s change notification listed \"\(pair.key)\" although its visible value did not change."))
        }
        changed.removeAll(keepingCapacity: true); listed.removeAll(keepingCapacity: true)
    }

    /// A sorted list without repeats.
    private func unique(_ sorted: [(device: Int32, key: String)]) -> [(device: Int32, key: String)] {
        var result: [(device: Int32, key: String)] = []
        for pair in sorted where result.last.map({ $0.device != pair.device || $0.key != pair.key }) ?? true { result.append(pair) }
        return result
    }

    private func anomaly(_ kind: AnomalyKind, _ pair: (device: Int32, key: String), at time: SimInstant, _ context: CheckContext, _ explanation: String) -> Anomaly {
        Anomaly(kind: kind, store: .kvs, account: context.accountLabel(context.accountOf[Int(pair.device)]), item: pair.key, field: nil,
                device: context.deviceName(DeviceID(pair.device)), at: notifiedAt[Int(pair.device)] ?? time, explanation: explanation)
    }

    /// Notification counts per (device name, reason), sorted.
    func notificationCounts(_ context: CheckContext) -> [NotificationCount] {
        var byName: [String: [String: Int]] = [:]
        for (device, reasons) in counts.enumerated() {
            for entry in reasons {
                byName[context.deviceName(DeviceID(index: device)), default: [:]][context.history.facts.reason(entry.reason), default: 0] += entry.count
            }
        }
        var result: [NotificationCount] = []
        for device in byName.keys.sorted() {
            for reason in (byName[device] ?? [:]).keys.sorted() {
                result.append(NotificationCount(device: device, reason: reason, count: byName[device]?[reason] ?? 0))
            }
        }
        return result
    }
}
