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
    /// The count per (device index, reason id of the log), at `device * reasonCount + reason`:
    /// the log knows its reasons before the scan, so one flat array, not a list per device
    /// searched and grown (nested arrays, a uniqueness check each) on every notification.
    private var counts: [Int]
    private let reasonCount: Int
    /// Per reason id of the log: does a KVS notification with it list the keys a fetch changed
    /// (`serverChange`, `initialSyncChange`)?
    private let listsChangedKeys: [Bool]
    /// This batch's (device index, item) pairs changed by a fetch, each with the log's id of the
    /// item's name (-1: no notification listed that name), and its (device index, name id)
    /// pairs listed; usually one device and a key or two, so arrays sorted at the batch's end,
    /// not sets per device. Compared as ids first: the usual batch lists exactly what changed,
    /// and integers sort and compare without reading a string (the string sorts were a fifth
    /// of the checker's scan). Only when the ids differ are the names compared as before, in
    /// the order recorded (`order`), so that of two spellings of one key the same one is named.
    private var changed: [(device: Int32, item: Int32, name: Int32, order: Int32)] = []
    private var listed: [(device: Int32, name: Int32, order: Int32)] = []
    /// Per item id of the checker, the log's id of its name if it is a KVS key (-1: no
    /// notification listed it), `ItemName.other` for any other store, `ItemName.unknown` before
    /// it is looked up (once per item: the log is complete when the checker runs).
    private var nameOfItem: [Int32] = []
    private enum ItemName {
        static let other: Int32 = -2
        static let unknown: Int32 = -3
    }
    /// The history's facts, for the names of their ids.
    private let log: FactLog
    /// When each device was last notified (or first changed by a fetch, before any notification),
    /// by device index; nil: never.
    private var notifiedAt: [SimInstant?]

    init(deviceCount: Int, log: FactLog) {
        self.log = log
        reasonCount = log.reasonCount
        counts = Array(repeating: 0, count: deviceCount * log.reasonCount)
        notifiedAt = Array(repeating: nil, count: deviceCount)
        listsChangedKeys = (0..<log.reasonCount).map { id in
            let reason = log.reason(Int32(id))
            return reason == "serverChange" || reason == "initialSyncChange"
        }
    }

    /// A notification of the log (`FactLog.storedNotification(of:)`), delivered to `device`.
    mutating func notified(_ notification: StoredNotification, device: DeviceID, at time: SimInstant) {
        total += 1
        let index = Int(device.index)
        counts[index * reasonCount + Int(notification.reason)] += 1
        if notification.store == .kvs && listsChangedKeys[Int(notification.reason)] {
            for position in notification.items { listed.append((device.index, log.notificationItem(position), Int32(listed.count))) }
            notifiedAt[index] = time
        }
    }

    /// A visible change. Given the context's items, not the context: a struct of ~600 bytes
    /// lent to a call that is not inlined is copied whole for it (a `memcpy` per visible fact).
    mutating func visible(_ step: VisibleStep, at time: SimInstant, items: ItemTable) {
        guard step.cause == .fetch else { return }
        let name = logName(ofItem: step.item, items)
        guard name != ItemName.other && step.previousValue != step.value else { return }
        changed.append((step.device.index, step.item, name, Int32(changed.count)))
        let index = Int(step.device.index)
        if notifiedAt[index] == nil { notifiedAt[index] = time }
    }

    /// The log's id of a checker item's name (`nameOfItem`), looked up the first time.
    private mutating func logName(ofItem item: Int32, _ items: ItemTable) -> Int32 {
        if Int(item) >= nameOfItem.count {
            nameOfItem.append(contentsOf: repeatElement(ItemName.unknown, count: max(Int(item) + 1, items.count) - nameOfItem.count))
        }
        if nameOfItem[Int(item)] == ItemName.unknown {
            let key = items[item]
            nameOfItem[Int(item)] = key.store == .kvs ? log.nameID(of: key.name) ?? -1 : ItemName.other
        }
        return nameOfItem[Int(item)]
    }

    /// The batch ended: compares what changed with what was listed, device by device (devices
    /// in index order, keys sorted; every missed key before every spurious one). The context is
    /// lent by address (`inout`, only read), not copied for each batch (see `visible`).
    mutating func endBatch(at time: SimInstant, _ context: inout CheckContext) {
        guard !changed.isEmpty || !listed.isEmpty else { return }
        // The usual batch, by ids: the same (device, name id) pairs changed and listed. Equal
        // ids are equal names, so this says no more than the names would. One pair each (most
        // batches) needs no sort.
        if changed.count == listed.count {
            if changed.count > 1 {
                changed.sort { $0.device != $1.device ? $0.device < $1.device : $0.name < $1.name }
                listed.sort { $0.device != $1.device ? $0.device < $1.device : $0.name < $1.name }
            }
            if zip(changed, listed).allSatisfy({ $0.name >= 0 && $0.device == $1.device && $0.name == $1.name }) {
                changed.removeAll(keepingCapacity: true); listed.removeAll(keepingCapacity: true)
                return
            }
        }
        self.changed.sort { $0.order < $1.order }; self.listed.sort { $0.order < $1.order }
        var changed = self.changed.map { (device: $0.device, key: context.items[$0.item].name) }
        var listed = self.listed.map { (device: $0.device, key: log.name($0.name)) }
        self.changed.removeAll(keepingCapacity: true); self.listed.removeAll(keepingCapacity: true)
        let byDeviceThenKey: ((device: Int32, key: String), (device: Int32, key: String)) -> Bool = {
            $0.device != $1.device ? $0.device < $1.device : $0.key < $1.key
        }
        changed.sort(by: byDeviceThenKey); listed.sort(by: byDeviceThenKey)
        // A fetch that changed exactly the keys it listed, as names (two spellings of one).
        if changed.count == listed.count && zip(changed, listed).allSatisfy({ $0.device == $1.device && $0.key == $1.key }) { return }
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
        for (position, count) in counts.enumerated() where count > 0 {
            let device = position / reasonCount, reason = Int32(position % reasonCount)
            byName[context.deviceName(DeviceID(index: device)), default: [:]][context.history.facts.reason(reason), default: 0] += count
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
