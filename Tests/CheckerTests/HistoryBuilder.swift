import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// Builds histories by hand, the way the simulator records them, for checker tests.
struct HistoryBuilder {
    var history: History
    var batch = 0
    var sequence: [Int32: UInt32] = [:]
    let account = AccountID(0)

    init(devices: [String] = ["A", "B"], accounts: [String] = ["main"]) {
        history = History(deviceNames: devices, accountNames: accounts)
        for index in devices.indices {
            history.facts.append(FactRecord(batch: 0, at: .start, device: DeviceID(index: index), kind: .accountChanged(AccountID(0))))
        }
        history.finalCloud = accounts.map { _ in [] }
        history.survivingWrites = accounts.map { _ in [] }
        history.finalDeviceViews = devices.map { _ in [] }
        history.finalDeviceAccounts = devices.map { _ in AccountID(0) }
    }

    func key(_ name: String, store: Store = .kvs, field: String = "") -> ItemKey {
        ItemKey(account: account, store: store, name: name, field: field)
    }

    /// A user write on `device` at `seconds`, made visible locally on the given items.
    @discardableResult
    mutating func write(_ device: Int, at seconds: Int64, _ items: [(ItemKey, ItemValue)], op: String = "kvs.set") -> WriteID {
        sequence[Int32(device), default: 0] += 1
        let write = WriteID(device: DeviceID(index: device), sequence: sequence[Int32(device)]!)
        let time = SimInstant(microseconds: seconds * 1_000_000)
        history.operations.append(OperationRecord(write: write, device: DeviceID(index: device), account: account, at: time,
            localAt: LocalInstant(microseconds: time.microseconds), op: op, summary: op, outcome: .accepted))
        batch += 1
        for (item, value) in items {
            history.facts.append(FactRecord(batch: batch, at: time, device: DeviceID(index: device), kind: .observation(.visible(item: item, value: value, write: write, cause: .local))))
        }
        return write
    }

    /// `device` now shows `write`'s value for the items (a fetch).
    mutating func fetch(_ device: Int, at seconds: Int64, _ items: [(ItemKey, ItemValue, WriteID?)], notify: [String]? = nil, reason: String = "serverChange") {
        batch += 1
        let time = SimInstant(microseconds: seconds * 1_000_000)
        for (item, value, write) in items {
            history.facts.append(FactRecord(batch: batch, at: time, device: DeviceID(index: device), kind: .observation(.visible(item: item, value: value, write: write, cause: .fetch))))
        }
        if let notify {
            history.facts.append(FactRecord(batch: batch, at: time, device: DeviceID(index: device), kind: .notification(AppNotification(store: .kvs, reason: reason, items: notify))))
        }
    }

    mutating func cloud(at seconds: Int64, _ observation: Observation) {
        batch += 1
        history.facts.append(FactRecord(batch: batch, at: SimInstant(microseconds: seconds * 1_000_000), device: nil, kind: .observation(observation)))
    }

    mutating func device(_ device: Int, at seconds: Int64, _ observation: Observation) {
        batch += 1
        history.facts.append(FactRecord(batch: batch, at: SimInstant(microseconds: seconds * 1_000_000), device: DeviceID(index: device), kind: .observation(observation)))
    }

    /// The cloud's and every device's final view.
    mutating func final(_ entries: [ViewEntry], devices: [[ViewEntry]]? = nil) {
        history.finalCloud[0] = entries.sorted { $0.item < $1.item }
        history.finalDeviceViews = devices ?? history.deviceNames.map { _ in entries }
    }

    func check() -> CheckReport { Checker().check(history) }
}
