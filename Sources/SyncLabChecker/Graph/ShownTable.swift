import SyncLabProtocol

/// What each device shows for each item now: the table every visible fact reads and writes.
///
/// It was one `IntMap` keyed by (device, item): at 1,000 devices some 100,000 entries in a
/// 262,144-slot table (~19 MB, half of it empty slots), where the probe of each visible fact
/// missed in cache (11% of a `bench --check` profile, 85% of that on the probe's key compare).
/// Here each device keeps, per account it showed items of, a dense array by the item's index
/// within its account: no keys, no empty slots, and a device's items side by side. Its size is
/// what the devices showed: per device, the items of each account it showed any of, up to the
/// highest index shown, never devices × all items of the run.
struct ShownTable {
    /// What a slot holds before its device showed the item: `subscript` gives nil for it.
    private static let never = Shown(write: -2, value: .absent)

    /// Per device, per account slot (`accounts`), the entries by the item's index in its account.
    private var entries: [[[Shown]]]
    /// The slot of each account items belong to (slots in first-seen order).
    private var accountSlots: [AccountID: Int] = [:]
    /// Per account slot, its items by their index in it.
    private var itemsOfAccount: [[Int32]] = []
    /// Per item id, its account slot and its index in that account.
    private var places: [(account: Int32, index: Int32)] = []

    init(deviceCount: Int) { entries = Array(repeating: [], count: deviceCount) }

    /// Gives the next item id (`places.count`) its place: call once per item, in id order.
    mutating func addItem(account: AccountID) {
        let slot = accountSlots[account] ?? itemsOfAccount.count
        if slot == itemsOfAccount.count { accountSlots[account] = slot; itemsOfAccount.append([]) }
        places.append((Int32(slot), Int32(itemsOfAccount[slot].count)))
        itemsOfAccount[slot].append(Int32(places.count - 1))
    }

    /// What `device` shows for `item` (nil: it never showed the item).
    subscript(device device: Int32, item item: Int32) -> Shown? {
        let place = places[Int(item)]
        guard Int(device) < entries.count, Int(place.account) < entries[Int(device)].count,
              Int(place.index) < entries[Int(device)][Int(place.account)].count else { return nil }
        let shown = entries[Int(device)][Int(place.account)][Int(place.index)]
        return shown.write == ShownTable.never.write ? nil : shown
    }

    /// Stores what `device` shows for `item` now and hands back what it showed before (nil: never shown).
    mutating func exchange(device: Int32, item: Int32, _ new: Shown) -> Shown? {
        let place = places[Int(item)]
        let device = Int(device), account = Int(place.account), index = Int(place.index)
        if device >= entries.count { entries.append(contentsOf: repeatElement([], count: device + 1 - entries.count)) }
        if account >= entries[device].count { entries[device].append(contentsOf: repeatElement([], count: account + 1 - entries[device].count)) }
        if index >= entries[device][account].count {
            entries[device][account].append(contentsOf: repeatElement(ShownTable.never, count: index + 1 - entries[device][account].count))
        }
        var old = new
        swap(&old, &entries[device][account][index])
        return old.write == ShownTable.never.write ? nil : old
    }

    /// How many slots the table holds, shown or not: what its memory grows with.
    var slotCount: Int { entries.reduce(0) { total, device in device.reduce(total) { $0 + $1.count } } }

    /// Calls `body` with every (device, item) a device showed, device by device.
    func forEach(_ body: (_ device: Int32, _ item: Int32, Shown) -> Void) {
        for device in entries.indices {
            for account in entries[device].indices {
                for (index, shown) in entries[device][account].enumerated() where shown.write != ShownTable.never.write {
                    body(Int32(device), itemsOfAccount[account][index], shown)
                }
            }
        }
    }
}
