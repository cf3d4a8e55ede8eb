import SyncLabHistory
import SyncLabProtocol

extension Fingerprint {
    /// Whether a records `divergence` is only about records no change reaches the device by:
    /// records of the private `_defaultZone`, and public records on a device whose app (as
    /// installed at the end) never subscribed to the public database.
    ///
    /// SPEC §4.3: the default zone has no change tracking, so records saved there reach other
    /// devices only by fetching them by id or by query (no step does), and "an app that syncs
    /// through the default zone diverges". Likewise the public database pushes its changes only
    /// to the devices subscribed to it (`subscription.create`; the engine subscribes by itself to
    /// the private database only): a device that used it without subscribing queries it when it
    /// fetches (launch, foreground, a push of its private database), so a public change that
    /// lands after its last such fetch (the heal brings each app to the foreground once) never
    /// reaches it (`Scenarios/records-public-pushes-only-to-subscribers.json`).
    ///
    /// The anomaly names items as `ZONE/NAME`, the same for a public and a private record, so the
    /// device's final view is compared with the cloud's again here, as `DivergencePass` compares
    /// them, and every differing item must be such a record: a record of a custom zone, or a
    /// public one on a subscribed device, still breaks the promise.
    /// - Complexity: O(items in the device's view and its account's cloud, plus the steps).
    func divergesOnlyWhereNoChangeReaches(_ anomaly: Anomaly) -> Bool {
        guard anomaly.kind == .divergence, anomaly.store == .records,
              let index = history.deviceNames.firstIndex(of: anomaly.device),
              index < history.finalDeviceViews.count, let view = history.finalDeviceViews[index],
              index < history.finalDeviceAccounts.count, let account = history.finalDeviceAccounts[index] else { return false }
        let accountIndex = Int(account.index)
        let cloud = accountIndex < history.finalCloud.count ? history.finalCloud[accountIndex] : []
        let subscribedToPublic = subscribedToPublicAtEnd(index)
        func unsynced(_ item: ItemKey) -> Bool {
            item.account == .publicDatabase ? !subscribedToPublic : item.name.hasPrefix(RecordID.defaultZone + "/")
        }
        var cloudValues: [ItemKey: ItemValue] = [:]
        for entry in cloud where entry.item.store == .records { cloudValues[entry.item] = entry.value }
        var publicValues: [ItemKey: ItemValue] = [:]
        for entry in history.finalPublic where entry.item.store == .records { publicValues[entry.item] = entry.value }
        var shown: Set<ItemKey> = []
        var differs = false
        for entry in view where entry.item.store == .records {
            shown.insert(entry.item)
            let cloudValue = entry.item.account == .publicDatabase ? publicValues[entry.item] : cloudValues[entry.item] ?? .absent
            guard cloudValue != entry.value else { continue }
            guard unsynced(entry.item) else { return false }
            differs = true
        }
        // Sorted, so the walk (not only its answer) is the same in every process.
        for entry in cloud.sorted(by: { $0.item < $1.item }) where entry.item.store == .records && !shown.contains(entry.item) && entry.value != .absent {
            guard unsynced(entry.item) else { return false }
            differs = true
        }
        return differs
    }

    /// Whether the device's app, as installed at the end, asked for a public database
    /// subscription: a `subscription.create` of the public database while installed, since its
    /// last `app.delete` (deleting the app wipes what it had asked for with its data; a step on
    /// an uninstalled app does nothing). Records seed 14812: subscribed, reinstalled, and the
    /// new app never subscribed, so the cloud's pushes for the public database meant nothing to it.
    private func subscribedToPublicAtEnd(_ index: Int) -> Bool {
        var installed = true, subscribed = false
        for step in run.steps where step.devices.contains(index) {
            switch step.op {
            case .appDelete: installed = false; subscribed = false
            case .appInstall: installed = true
            case .subscriptionCreate(.public): subscribed = subscribed || installed
            default: break
            }
        }
        return subscribed
    }
}
