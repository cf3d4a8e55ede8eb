import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabChecker

/// `ShownTable`: what each device shows, by (device, item), sized by what the devices showed.
struct ShownTableTests {
    @Test func exchangeHandsBackWhatTheDeviceShowedBefore() {
        var table = ShownTable(deviceCount: 2)
        table.addItem(account: AccountID(0))
        table.addItem(account: AccountID(0))
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
        for item in 0..<6 { table.addItem(account: AccountID(Int32(item % 2))) }
        let shown: [(Int32, Int32)] = [(0, 5), (2, 0), (2, 3), (1, 4)]
        for (device, item) in shown { _ = table.exchange(device: device, item: item, Shown(write: item, value: .absent)) }
        var seen: [String] = []
        table.forEach { device, item, entry in
            #expect(entry.write == item)
            seen.append("\(device):\(item)")
        }
        #expect(seen.sorted() == shown.map { "\($0.0):\($0.1)" }.sorted())
    }

    @Test func aDeviceHoldsSlotsOnlyForTheAccountsItShowed() {
        // 1,000 items in account 0, then one in account 1: a device of account 1 that shows
        // its one item takes one slot, not 1,001.
        var table = ShownTable(deviceCount: 2)
        for _ in 0..<1_000 { table.addItem(account: AccountID(0)) }
        table.addItem(account: AccountID(1))
        _ = table.exchange(device: 1, item: 1_000, Shown(write: 0, value: .absent))
        #expect(table.slotCount == 1)
        #expect(table[device: 1, item: 1_000]?.write == 0)
    }

    @Test func aSlotHandsBackTheValueItHeldEvenWhenItsWriteShowedAnother() {
        // Write 3 shown with 1 on device 0, then with 2 on device 1 (a rollback, a merge):
        // each slot keeps its own value; the per-write shortcut must not hand back the last one.
        var table = ShownTable(deviceCount: 2)
        table.addItem(account: AccountID(0))
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
        table.addItem(account: AccountID(0))
        for device in 0..<1_000 {
            _ = table.exchange(device: Int32(device), item: 0, Shown(write: Int32(device % 2), value: .kvs(.integer(Int64(device % 2)))))
        }
        #expect(table.valueCount == 3)
        #expect(table[device: 999, item: 0]?.value == .kvs(.integer(1)))
    }
}
