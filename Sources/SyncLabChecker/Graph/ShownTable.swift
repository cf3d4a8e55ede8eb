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
    /// One (device, item) slot: the write shown and the value shown, by its id in `values`.
    /// 8 bytes instead of a whole `Shown` (an `ItemValue` inline: 32 bytes), so the table of
    /// 1,000 devices × 100 keys is 0.8 MB, not 3.2 MB, and stays in the core's cache through
    /// the scan: its probe, a cache miss on each visible fact, was a third of the checker's time
    /// (issue 13, `--check`, session 9).
    private struct Slot {
        var write: Int32
        var value: Int32
    }

    /// What a slot holds before its device showed the item: `subscript` gives nil for it.
    private static let never = Slot(write: -2, value: 0)

    /// Per device, per account slot (`accounts`), the entries by the item's index in its account.
    private var entries: [[[Slot]]]
    /// The slot of each account items belong to (slots in first-seen order).
    private var accountSlots: [AccountID: Int] = [:]
    /// Per account slot, its items by their index in it.
    private var itemsOfAccount: [[Int32]] = []
    /// Per item id, its account slot and its index in that account.
    private var places: [(account: Int32, index: Int32)] = []
    /// The values shown, each once (id 0: `.absent`). A value stands for any value `==` to it:
    /// the table's values are only ever compared, never printed, so the one kept is as good.
    private var values: [ItemValue] = [.absent]
    private var valueIDs: [ItemValue: Int32] = [.absent: 0]
    /// Per dense write id, the id of the last value shown with it (-1: none yet): a write shows
    /// one value nearly always, so this spares hashing the value on each visible fact.
    private var valueOfWrite: [Int32] = []

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
        return shown(entries[Int(device)][Int(place.account)][Int(place.index)])
    }

    /// Stores what `device` shows for `item` now and hands back what it showed before (nil: never shown).
    mutating func exchange(device: Int32, item: Int32, _ new: Shown) -> Shown? {
        let value = valueID(new.value, write: new.write)
        let place = places[Int(item)]
        let device = Int(device), account = Int(place.account), index = Int(place.index)
        if device >= entries.count { entries.append(contentsOf: repeatElement([], count: device + 1 - entries.count)) }
        if account >= entries[device].count { entries[device].append(contentsOf: repeatElement([], count: account + 1 - entries[device].count)) }
        if index >= entries[device][account].count {
            entries[device][account].append(contentsOf: repeatElement(ShownTable.never, count: index + 1 - entries[device][account].count))
        }
        var old = Slot(write: new.write, value: value)
        swap(&old, &entries[device][account][index])
        return shown(old)
    }

    /// The `Shown` a slot stands for (nil: never shown).
    private func shown(_ slot: Slot) -> Shown? {
        slot.write == ShownTable.never.write ? nil : Shown(write: slot.write, value: values[Int(slot.value)])
    }

    /// The id of `value` (shown with `write`, a dense write id or negative for none), given it
    /// one if no value `==` to it has one.
    private mutating func valueID(_ value: ItemValue, write: Int32) -> Int32 {
        if case .absent = value { return 0 }
        if write >= 0, Int(write) < valueOfWrite.count {
            let last = valueOfWrite[Int(write)]
            if last >= 0, values[Int(last)] == value { return last }
        }
        let id: Int32
        if let known = valueIDs[value] {
            id = known
        } else {
            id = Int32(values.count)
            values.append(value)
            valueIDs[value] = id
        }
        if write >= 0 {
            if Int(write) >= valueOfWrite.count { valueOfWrite.append(contentsOf: repeatElement(-1, count: Int(write) + 1 - valueOfWrite.count)) }
            valueOfWrite[Int(write)] = id
        }
        return id
    }

    /// How many distinct values the table keeps (`.absent` included): values are kept once, not per slot.
    var valueCount: Int { values.count }

    /// How many slots the table holds, shown or not: what its memory grows with.
    var slotCount: Int { entries.reduce(0) { total, device in device.reduce(total) { $0 + $1.count } } }

    /// Calls `body` with every (device, item) a device showed, device by device.
    func forEach(_ body: (_ device: Int32, _ item: Int32, Shown) -> Void) {
        for device in entries.indices {
            for account in entries[device].indices {
                for (index, slot) in entries[device][account].enumerated() {
                    if let shown = shown(slot) { body(Int32(device), itemsOfAccount[account][index], shown) }
                }
            }
        }
    }
}
