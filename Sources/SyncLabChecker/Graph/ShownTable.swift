import SyncLabProtocol
import SyncLabHistory

/// What each device shows for each item now: the table every visible fact reads and writes.
///
/// It was one `IntMap` keyed by (device, item): at 1,000 devices some 100,000 entries in a
/// 262,144-slot table (~19 MB, half of it empty slots), where the probe of each visible fact
/// missed in cache (11% of a `bench --check` profile, 85% of that on the probe's key compare).
/// Then (session 9) each device kept, per account, a dense array by the item's index in it:
/// device by device. But a write reaches its item on device after device (its fan-out), so
/// consecutive visible facts hit one item on many devices: a cache line apart each, and the
/// lines the next fact of that device needed were gone by then, streamed out by the facts
/// themselves. The slot's load was 64% of the probe, the probe a third of the checker
/// (issue 13, session 12).
///
/// Here each item keeps one row of slots by device, all rows in one array (`arena`): a
/// fan-out walks one row, eight devices a cache line, and the row stays in cache while it
/// does. A row covers the span of devices that showed the item (it starts at the first and
/// grows, at least doubling, toward the next one outside it), so its size is what the devices
/// showed, not devices × all items of the run: a device of another account never gets a slot in
/// an item it does not show. Where the spans would be mostly empty (devices of many accounts
/// interleaved), a row that would take the arena past `denseSlotLimit` and past four slots for
/// every one shown keeps its devices in `sparse` instead.
struct ShownTable {
    /// One (device, item) slot: the write shown and the value shown, by its id in `values`.
    /// 8 bytes instead of a whole `Shown` (an `ItemValue` inline: 32 bytes), so the table of
    /// 1,000 devices × 100 keys is 0.8 MB, not 3.2 MB.
    private struct Slot {
        var write: Int32
        var value: Int32
    }

    /// One item's devices: slots `offset..<offset + count` of `arena` for devices
    /// `first..<first + count`; `offset` is `Row.none` before its first device and
    /// `Row.sparse` once its devices are in `sparse`.
    private struct Row {
        var first: Int32 = 0
        var count: Int32 = 0
        var offset: Int = Row.none

        static let none = -1
        static let sparse = -2
    }

    /// What `exchange(device:item:write:value:)` did to a slot.
    struct Change {
        /// Had the device shown the item before?
        var wasShown: Bool
        /// The write it showed (when `wasShown`).
        var previousWrite: Int32
        /// The id of the value it showed (`absentValue` when it never showed the item).
        var previousValue: Int32
        /// The id of the value it shows now.
        var value: Int32
    }

    /// The id of `.absent`. Values `==` to each other have one id, so ids compare as the values do.
    static let absentValue: Int32 = 0

    /// What a slot holds before its device showed the item: `subscript` gives nil for it.
    private static let never = Slot(write: -2, value: absentValue)

    /// The arena may always grow to this many slots (by default 4 M, 32 MB); past it, only
    /// while at least a quarter of its slots are shown.
    private let denseSlotLimit: Int

    /// The rows, by item id.
    private var rows: [Row] = []
    /// Every row's slots, row after row (a row that grew leaves its old slots behind: at most
    /// as many as the live ones, since rows at least double).
    private var arena: [Slot] = []
    /// The slots of sparse rows, by `item << 32 | device`.
    private var sparse = IntMap<Slot>()
    /// The devices of each sparse row, by item id, in the order they first showed it.
    private var sparseDevices: [Int32: [Int32]] = [:]
    /// How many (device, item) pairs were shown: what the arena is measured against.
    private var shownCount = 0
    /// The device indexes a row may span: `0..<deviceCount` (more if a fact names a higher one).
    private let deviceCount: Int
    /// The values shown, each once (id 0: `.absent`). A value stands for any value `==` to it:
    /// the table's values are only ever compared, never printed, so the one kept is as good.
    private var values: [ItemValue] = [.absent]
    private var valueIDs: [ItemValue: Int32] = [.absent: 0]
    /// Per dense write id, the id of the last value shown with it (-1: none yet): a write shows
    /// one value nearly always, so this spares hashing the value on each visible fact.
    private var valueOfWrite: [Int32] = []
    /// The ids of `.kvs(.integer(n))` and `.field(.int(n))` by `n` (`valueID(of:in:write:)`),
    /// each the id `valueID(_:write:)` gave that value (`Int64.min`, `IntMap`'s free key, is
    /// never kept here).
    private var kvsIntegerIDs = IntMap<Int32>()
    private var fieldIntIDs = IntMap<Int32>()

    init(deviceCount: Int, denseSlotLimit: Int = 1 << 22) {
        self.deviceCount = deviceCount; self.denseSlotLimit = denseSlotLimit
    }

    /// Gives the next item id (`rows.count`) its row: call once per item, in id order.
    mutating func addItem() { rows.append(Row()) }

    /// What `device` shows for `item` (nil: it never showed the item).
    subscript(device device: Int32, item item: Int32) -> Shown? {
        let row = rows[Int(item)]
        if row.offset == Row.sparse { return sparse[ShownTable.sparseKey(device, item)].flatMap(shown) }
        guard row.offset >= 0, device >= row.first, device - row.first < row.count else { return nil }
        return shown(arena[row.offset + Int(device - row.first)])
    }

    /// Stores what `device` shows for `item` now and hands back what it showed before (nil: never shown).
    mutating func exchange(device: Int32, item: Int32, _ new: Shown) -> Shown? {
        let change = exchange(device: device, item: item, write: new.write, value: new.value)
        return change.wasShown ? Shown(write: change.previousWrite, value: values[Int(change.previousValue)]) : nil
    }

    /// Stores that `device` shows `value` (with `write`, a dense write id or negative for none)
    /// for `item` now, and says what it showed before, values as ids.
    mutating func exchange(device: Int32, item: Int32, write: Int32, value: ItemValue) -> Change {
        exchange(device: device, item: item, write: write, valueID: valueID(value, write: write))
    }

    /// `exchange(device:item:write:value:)` of the value with id `valueID` (`valueID(_:write:)`,
    /// `valueID(of:in:write:)`): the scan's path, which builds no `Shown`.
    mutating func exchange(device: Int32, item: Int32, write: Int32, valueID id: Int32) -> Change {
        let old = exchangeSlot(device: device, item: item, Slot(write: write, value: id))
        return Change(wasShown: old.write != ShownTable.never.write, previousWrite: old.write, previousValue: old.value, value: id)
    }

    /// The id of the value a `visible` stored fact of `log` shows (with `write`, a dense write id
    /// or negative for none). A plain number the log keeps inline finds its id by the number
    /// (`numberIDs`), without building the `ItemValue` and comparing or hashing it: the
    /// copies, compares and destroys of those values were ~2% of `bench --check`'s
    /// instructions (issue 13, session 12).
    mutating func valueID(of fact: StoredFact, in log: FactLog, write: Int32) -> Int32 {
        if fact.showsAbsent { return ShownTable.absentValue }
        guard fact.showsKVSInteger || fact.showsFieldInt, fact.number != Int64.min else { return valueID(log.value(of: fact), write: write) }
        let key = Int(fact.number)
        if let known = fact.showsKVSInteger ? kvsIntegerIDs[key] : fieldIntIDs[key] { return known }
        let id = valueID(log.value(of: fact), write: write)
        if fact.showsKVSInteger { _ = kvsIntegerIDs.exchange(key, id) } else { _ = fieldIntIDs.exchange(key, id) }
        return id
    }

    /// Puts `new` in (device, item)'s slot and hands back what it held (`never`: never shown).
    private mutating func exchangeSlot(device: Int32, item: Int32, _ new: Slot) -> Slot {
        var old = new
        var row = rows[Int(item)]
        if row.offset >= 0, device >= row.first, device - row.first < row.count {
            swap(&old, &arena[row.offset + Int(device - row.first)])
        } else {
            if row.offset != Row.sparse { row = grow(item, toCover: device) }
            if row.offset == Row.sparse {
                if let previous = sparse.exchange(ShownTable.sparseKey(device, item), old) { return previous }
                sparseDevices[item, default: []].append(device)
                shownCount += 1
                return ShownTable.never
            }
            swap(&old, &arena[row.offset + Int(device - row.first)])
        }
        if old.write == ShownTable.never.write { shownCount += 1 }
        return old
    }

    /// Moves `item`'s row to new slots at the end of the arena that also cover `device`: at
    /// least twice its devices, stretched toward `device`'s side; or, when that would leave the
    /// arena mostly empty and large, into `sparse`.
    private mutating func grow(_ item: Int32, toCover device: Int32) -> Row {
        let old = rows[Int(item)]
        let limit = max(deviceCount, Int(device) + 1)
        var low = Int(device), high = Int(device) + 1
        if old.offset >= 0 {
            low = min(low, Int(old.first))
            high = max(high, Int(old.first + old.count))
            let wanted = max(high - low, 2 * Int(old.count))
            if device < old.first {
                low = max(0, high - wanted); high = min(limit, low + wanted)
            } else {
                high = min(limit, low + wanted); low = max(0, high - wanted)
            }
        }
        var row = Row(first: Int32(low), count: Int32(high - low), offset: arena.count)
        if arena.count + (high - low) > max(denseSlotLimit, 4 * (shownCount + 1)) {
            row = Row(first: 0, count: 0, offset: Row.sparse)
            if old.offset >= 0 {
                for index in 0..<Int(old.count) where arena[old.offset + index].write != ShownTable.never.write {
                    let oldDevice = old.first + Int32(index)
                    _ = sparse.exchange(ShownTable.sparseKey(oldDevice, item), arena[old.offset + index])
                    sparseDevices[item, default: []].append(oldDevice)
                }
            }
        } else {
            arena.append(contentsOf: repeatElement(ShownTable.never, count: high - low))
            if old.offset >= 0 {
                let from = old.offset, to = row.offset + Int(old.first) - low
                for index in 0..<Int(old.count) { arena[to + index] = arena[from + index] }
            }
        }
        rows[Int(item)] = row
        return row
    }

    /// The key of (device, item) in `sparse`.
    private static func sparseKey(_ device: Int32, _ item: Int32) -> Int { Int(item) << 32 | Int(UInt32(bitPattern: device)) }

    /// The `Shown` a slot stands for (nil: never shown).
    private func shown(_ slot: Slot) -> Shown? {
        slot.write == ShownTable.never.write ? nil : Shown(write: slot.write, value: values[Int(slot.value)])
    }

    /// The id of `value` (shown with `write`, a dense write id or negative for none), given it
    /// one if no value `==` to it has one.
    mutating func valueID(_ value: ItemValue, write: Int32) -> Int32 {
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

    /// How many slots the table holds, shown or not, in the arena (old slots of grown rows
    /// included) and in `sparse`: what its memory grows with.
    var slotCount: Int { arena.count + sparse.count }

    /// Calls `body` with every (device, item) a device showed: item by item, each item's
    /// devices in increasing order.
    func forEach(_ body: (_ device: Int32, _ item: Int32, Shown) -> Void) {
        for (item, row) in rows.enumerated() {
            if row.offset == Row.sparse {
                for device in (sparseDevices[Int32(item)] ?? []).sorted() {
                    if let slot = sparse[ShownTable.sparseKey(device, Int32(item))], let shown = shown(slot) { body(device, Int32(item), shown) }
                }
                continue
            }
            guard row.offset >= 0 else { continue }
            for index in 0..<Int(row.count) {
                if let shown = shown(arena[row.offset + index]) { body(row.first + Int32(index), Int32(item), shown) }
            }
        }
    }
}
