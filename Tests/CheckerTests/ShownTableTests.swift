import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// `ShownTable`: what each device shows, by (device, item), sized by what the devices showed.
struct ShownTableTests {
    @Test func exchangeHandsBackWhatTheDeviceShowedBefore() {
        var table = ShownTable(deviceCount: 2)
        table.addItem()
        table.addItem()
        #expect(table[device: 0, item: 1] == nil)
        #expect(table.exchange(device: 0, item: 1, Shown(write: 7, value: .kvs(.integer(1)))) == nil)
        #expect(table.exchange(device: 0, item: 1, Shown(write: 8, value: .absent))?.write == 7)
        #expect(table[device: 0, item: 1]?.write == 8)
        // Shown absent with no write behind it is something shown, not "never shown".
        #expect(table.exchange(device: 1, item: 0, Shown(write: -1, value: .absent)) == nil)
        #expect(table[device: 1, item: 0]?.write == -1)
        #expect(table[device: 1, item: 1] == nil)
        #expect(table[device: 0, item: 0] == nil)
    }

    @Test func forEachVisitsEveryShownPairOnce() {
        var table = ShownTable(deviceCount: 3)
        for _ in 0..<6 { table.addItem() }
        let shown: [(Int32, Int32)] = [(0, 5), (2, 0), (2, 3), (1, 4)]
        for (device, item) in shown { _ = table.exchange(device: device, item: item, Shown(write: item, value: .absent)) }
        var seen: [String] = []
        table.forEach { device, item, entry in
            #expect(entry.write == item)
            seen.append("\(device):\(item)")
        }
        #expect(seen.sorted() == shown.map { "\($0.0):\($0.1)" }.sorted())
    }

    @Test func aDeviceHoldsSlotsOnlyForTheItemsItShowed() {
        // 1,001 items: a device that shows one of them takes one slot, not 1,001.
        var table = ShownTable(deviceCount: 2)
        for _ in 0...1_000 { table.addItem() }
        _ = table.exchange(device: 1, item: 1_000, Shown(write: 0, value: .absent))
        #expect(table.slotCount == 1)
        #expect(table[device: 1, item: 1_000]?.write == 0)
    }

    @Test func aSlotHandsBackTheValueItHeldEvenWhenItsWriteShowedAnother() {
        // Write 3 shown with 1 on device 0, then with 2 on device 1 (a rollback, a merge):
        // each slot keeps its own value; the per-write shortcut must not hand back the last one.
        var table = ShownTable(deviceCount: 2)
        table.addItem()
        _ = table.exchange(device: 0, item: 0, Shown(write: 3, value: .kvs(.integer(1))))
        _ = table.exchange(device: 1, item: 0, Shown(write: 3, value: .kvs(.integer(2))))
        #expect(table.exchange(device: 0, item: 0, Shown(write: 4, value: .absent))?.value == .kvs(.integer(1)))
        #expect(table.exchange(device: 1, item: 0, Shown(write: -1, value: .kvs(.string("x"))))?.value == .kvs(.integer(2)))
        #expect(table[device: 1, item: 0]?.value == .kvs(.string("x")))
        #expect(table[device: 1, item: 0]?.write == -1)
    }

    @Test func aValueShownByManyDevicesIsKeptOnce() {
        // 1,000 devices show the same two values: the table keeps them once each (and `.absent`),
        // 8 bytes a slot instead of a value per slot.
        var table = ShownTable(deviceCount: 1_000)
        table.addItem()
        for device in 0..<1_000 {
            _ = table.exchange(device: Int32(device), item: 0, Shown(write: Int32(device % 2), value: .kvs(.integer(Int64(device % 2)))))
        }
        #expect(table.valueCount == 3)
        #expect(table[device: 999, item: 0]?.value == .kvs(.integer(1)))
    }

    @Test func forEachGoesItemByItemEachItemsDevicesInOrder() {
        // Each item's devices in increasing order (what `SurvivalPass` appends to an item's
        // roots in), whatever order they showed it in; a row grown down and up keeps them all.
        var table = ShownTable(deviceCount: 10)
        for _ in 0..<2 { table.addItem() }
        for device: Int32 in [5, 2, 9, 0, 7] { _ = table.exchange(device: device, item: 1, Shown(write: device, value: .absent)) }
        for device: Int32 in [3, 8] { _ = table.exchange(device: device, item: 0, Shown(write: device, value: .absent)) }
        var seen: [String] = []
        table.forEach { device, item, entry in
            #expect(entry.write == device)
            seen.append("\(item):\(device)")
        }
        #expect(seen == ["0:3", "0:8", "1:0", "1:2", "1:5", "1:7", "1:9"])
        for device: Int32 in [0, 2, 5, 7, 9] { #expect(table[device: device, item: 1]?.write == device) }
        #expect(table[device: 1, item: 1] == nil)
        #expect(table[device: 3, item: 1] == nil)
    }

    @Test func mostlyEmptyRowsGoSparseOnceTheArenaIsLarge() {
        // 200 items, each shown by two devices far apart (devices of many accounts
        // interleaved): dense rows would span ~10,000 devices each. Past the dense limit the
        // rows keep only what was shown, and every lookup and exchange still answers as before.
        let devices = 10_000, items = 200
        var table = ShownTable(deviceCount: devices, denseSlotLimit: 1_000)
        for _ in 0..<items { table.addItem() }
        for item in 0..<items {
            let low = Int32(item), high = Int32(devices - 1 - item)
            #expect(table.exchange(device: high, item: Int32(item), Shown(write: high, value: .kvs(.integer(1)))) == nil)
            #expect(table.exchange(device: low, item: Int32(item), Shown(write: low, value: .absent)) == nil)
        }
        for item in 0..<items {
            let low = Int32(item), high = Int32(devices - 1 - item)
            #expect(table[device: low, item: Int32(item)]?.write == low)
            #expect(table[device: high, item: Int32(item)]?.value == .kvs(.integer(1)))
            #expect(table[device: low + 1, item: Int32(item)] == nil)
            #expect(table.exchange(device: high, item: Int32(item), Shown(write: -1, value: .absent))?.write == high)
        }
        #expect(table.slotCount <= 1_000 + 4 * 2 * items + 2 * items)
        var count = 0
        table.forEach { device, item, _ in
            #expect(device == item || device == Int32(devices - 1) - item)
            count += 1
        }
        #expect(count == 2 * items)
    }

    @Test func aPlainNumberOfTheLogHasTheIdItsValueHas() {
        // The scan finds a KVS integer's or a record field's integer's id by the number the log
        // keeps (no `ItemValue` built): the same id the value gets when given whole, whichever
        // comes first; 7 as a KVS integer and as a field integer are two values; Int64.min
        // (the number map's free key) and other values take the value path.
        var log = FactLog()
        let key = ItemKey(account: AccountID(0), store: .kvs, name: "k")
        let values: [ItemValue] = [.kvs(.integer(7)), .field(.int(7)), .kvs(.integer(Int64.min)), .kvs(.string("7")), .absent, .kvs(.integer(7))]
        for (number, value) in values.enumerated() {
            log.append(FactRecord(batch: number, at: .start, device: DeviceID(0), kind: .observation(.visible(item: key, value: value, write: nil, cause: .fetch))))
        }
        let facts = log.chunks[0]
        var table = ShownTable(deviceCount: 1)
        let fieldFirst = table.valueID(.field(.int(7)), write: -1)
        let ids = facts.map { table.valueID(of: $0, in: log, write: -1) }
        #expect(ids[0] == ids[5])
        #expect(ids[1] == fieldFirst)
        #expect(ids[0] != ids[1])
        #expect(ids[4] == ShownTable.absentValue)
        #expect(Set(ids).count == 5)
        #expect(ids[0] == table.valueID(.kvs(.integer(7)), write: -1))
        #expect(ids[2] == table.valueID(.kvs(.integer(Int64.min)), write: -1))
        #expect(ids[3] == table.valueID(.kvs(.string("7")), write: -1))
    }
}
