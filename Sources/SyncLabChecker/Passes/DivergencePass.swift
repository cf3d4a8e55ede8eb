import SyncLabProtocol
import SyncLabHistory

/// `divergence` (SPEC §6): after settling, a device whose view differs from the cloud's. One
/// anomaly per device and store, naming the first few differing items in its explanation and
/// every one in `items`.
struct DivergencePass {
    private(set) var anomalies: [Anomaly] = []

    /// Compares by the checker's item ids (`CheckContext.finalDeviceItems` and the like): ids
    /// are given by `ItemKey`'s `==`, as the dictionaries keyed by `ItemKey` this pass built per
    /// device matched keys, and no key is hashed here (hashing each device's view three times
    /// was most of this pass, ~1% of `bench --check` at 1,000 devices; issue 13, session 12).
    mutating func run(_ context: CheckContext) {
        let history = context.history
        var publicValues: [ItemValue?] = Array(repeating: nil, count: context.items.count)
        for (entry, item) in zip(history.finalPublic, context.finalPublicItems) { publicValues[Int(item)] = entry.value }
        // The cloud's view of each account by item id, built once per account a device is in.
        var cloudValuesByAccount: [Int: [ItemValue?]] = [:]
        // Per item id, the last device (index) whose view holds it.
        var inDeviceView: [Int] = Array(repeating: -1, count: context.items.count)
        for (index, viewOrNil) in history.finalDeviceViews.enumerated() {
            guard let view = viewOrNil, index < history.finalDeviceAccounts.count, let account = history.finalDeviceAccounts[index] else { continue }
            let accountIndex = Int(account.index)
            let cloud = accountIndex < history.finalCloud.count ? history.finalCloud[accountIndex] : []
            let cloudItems = accountIndex < context.finalCloudItems.count ? context.finalCloudItems[accountIndex] : []
            if cloudValuesByAccount[accountIndex] == nil {
                var values: [ItemValue?] = Array(repeating: nil, count: context.items.count)
                for (entry, item) in zip(cloud, cloudItems) { values[Int(item)] = entry.value }
                cloudValuesByAccount[accountIndex] = values
            }
            let cloudValues = cloudValuesByAccount[accountIndex] ?? []
            let viewItems = context.finalDeviceItems[index] ?? []
            var differing: [ItemKey] = []
            for (entry, item) in zip(view, viewItems) {
                inDeviceView[Int(item)] = index
                if entry.item.account == .publicDatabase {
                    if publicValues[Int(item)] != entry.value { differing.append(entry.item) }
                } else if cloudValues[Int(item)] ?? .absent != entry.value {
                    differing.append(entry.item)
                }
            }
            for (entry, item) in zip(cloud, cloudItems) where inDeviceView[Int(item)] != index && entry.value != .absent { differing.append(entry.item) }
            differing.sort()
            var reportedStores: Set<Store> = []
            for item in differing where reportedStores.insert(item.store).inserted {
                let sameStore = differing.filter { $0.store == item.store }
                let list = sameStore.prefix(3).map { $0.displayName }.joined(separator: ", ") + (sameStore.count > 3 ? " and \(sameStore.count - 3) more" : "")
                let device = history.deviceNames[index]
                var anomaly = context.anomaly(.divergence, item, device: device, at: history.end,
                    explanation: "After settling, \(device) disagrees with the cloud on \(sameStore.count) \(item.store.rawValue) item\(sameStore.count == 1 ? "" : "s"): \(list).")
                anomaly.account = history.accountName(account)
                // The explanation names a few; `expect.anomalies` must match any of them, as it
                // does for a refused multi-key write (`items` is written only when several).
                if sameStore.count > 1 { anomaly.items = sameStore.map(\.displayName) }
                anomalies.append(anomaly)
            }
        }
    }
}
