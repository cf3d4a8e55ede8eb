import SyncLabProtocol
import SyncLabHistory

/// `divergence` (SPEC §6): after settling, a device whose view differs from the cloud's. One
/// anomaly per device and store, naming the first few differing items.
struct DivergencePass {
    private(set) var anomalies: [Anomaly] = []

    mutating func run(_ context: CheckContext) {
        let history = context.history
        var publicValues: [ItemKey: ItemValue] = [:]
        for entry in history.finalPublic { publicValues[entry.item] = entry.value }
        // The cloud's view of each account, as a map, built once per account a device is in.
        var cloudValuesByAccount: [Int: [ItemKey: ItemValue]] = [:]
        for (index, viewOrNil) in history.finalDeviceViews.enumerated() {
            guard let view = viewOrNil, index < history.finalDeviceAccounts.count, let account = history.finalDeviceAccounts[index] else { continue }
            let accountIndex = Int(account.index)
            let cloud = accountIndex < history.finalCloud.count ? history.finalCloud[accountIndex] : []
            if cloudValuesByAccount[accountIndex] == nil {
                var values: [ItemKey: ItemValue] = [:]
                for entry in cloud { values[entry.item] = entry.value }
                cloudValuesByAccount[accountIndex] = values
            }
            let cloudValues = cloudValuesByAccount[accountIndex] ?? [:]
            var deviceValues: [ItemKey: ItemValue] = [:]
            for entry in view { deviceValues[entry.item] = entry.value }
            var differing: [ItemKey] = []
            for entry in view {
                if entry.item.account == .publicDatabase {
                    if publicValues[entry.item] != entry.value { differing.append(entry.item) }
                } else if cloudValues[entry.item] ?? .absent != entry.value {
                    differing.append(entry.item)
                }
            }
            for entry in cloud where deviceValues[entry.item] == nil && entry.value != .absent { differing.append(entry.item) }
            differing.sort()
            var reportedStores: Set<Store> = []
            for item in differing where reportedStores.insert(item.store).inserted {
                let sameStore = differing.filter { $0.store == item.store }
                let list = sameStore.prefix(3).map { $0.displayName }.joined(separator: ", ") + (sameStore.count > 3 ? " and \(sameStore.count - 3) more" : "")
                let device = history.deviceNames[index]
                var anomaly = context.anomaly(.divergence, item, device: device, at: history.end,
                    explanation: "After settling, \(device) disagrees with the cloud on \(sameStore.count) \(item.store.rawValue) item\(sameStore.count == 1 ? "" : "s"): \(list).")
                anomaly.account = history.accountName(account)
                anomalies.append(anomaly)
            }
        }
    }
}
