import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// Everything the one scan of a history builds and every pass reads (the write graph, built
/// once): dense ids for writes and items, what each write touched and replaced, what each
/// device shows, and the facts the passes judge (last-writer-wins choices, discards,
/// resolutions).
///
/// The scan (`apply(_:)`, in `CheckContext+Scan.swift`) is the only writer; passes read it, and
/// ask the graph reachability questions.
struct CheckContext {
    /// A last-writer-wins choice (SPEC §6 causality).
    struct Decision {
        var item: Int32
        var chosen: Int32
        var over: Int32
        var rule: String
        var at: SimInstant
    }

    /// A pending change discarded without reaching the cloud.
    struct Discard {
        var item: ItemKey
        var itemIndex: Int32
        var reason: String
        var at: SimInstant
        /// The next discard of the same write (its other items), -1 when none: the device
        /// discards a whole call, the cloud only the items a call lost with its other ones.
        var next: Int32 = -1
    }

    /// The device whose app resolved a conflict, and its policy.
    struct Resolution {
        var device: String
        var policy: String
    }

    let history: History
    var items: ItemTable
    var graph: WriteGraph
    /// Per dense write index.
    var writes: [WriteInfo] = []
    /// Per item id of the history's fact log (`StoredFact.item`), the item's dense id here (-1: not met yet).
    var itemOfLogItem: [Int32] = []
    /// What each device shows now.
    var shown: ShownTable
    /// The account each device is signed into now (nil: signed out), by device index.
    var accountOf: [AccountID?]
    /// The last write made to each item so far, by item id (-1: none).
    var latestWrite: [Int32] = []
    /// The last write so far that removed each item (a delete), by item id (-1: none): a device
    /// that shows an item absent may show that delete without ever having been told of it (it
    /// signed in after it, and a first fetch lists no deletions).
    var latestDelete: [Int32] = []
    /// The account of each item, by item id: what a pass asks of every visible fact, without
    /// copying the item's `ItemKey` (two strings, a retain and a release each) to read it.
    var accountOfItem: [AccountID] = []
    /// Per `writeItemKey(write:item:)`, the first few writes the write's own device then showed in its
    /// place: the first that had not seen it is what "replaced" it, in the device's own experience.
    var replacedOnDevice = IntMap<[Int32]>()
    var decisions: [Decision] = []
    var discards: [Discard] = []
    /// Engine writes (a `keepBoth` conflict copy, say) their device discarded pending, each once,
    /// in the order discarded: few, so a lost write's explanation scans them for its copy.
    var discardedDerived: [Int32] = []
    var resolutions: [Resolution] = []
    /// Why each engine's or app's own write was made, as its engine said (`conflict copy of A's
    /// version`, `the device's KVS app wrote it after the user's change`), indexed by
    /// `WriteInfo.derivedWhy`: explanations name a derived write by it, as a user write by its op.
    var derivedWhys: [String] = []
    /// Conflicts the cloud detected (SPEC §6 `conflicts`).
    var conflictCount = 0
    /// The final value of each item by item id (the cloud's, the public database's), once `finish` ran.
    var finalByItem: [ViewEntry?] = []
    /// The item ids of the history's final views, entry by entry (`finalCloud`, `finalPublic`,
    /// `finalDeviceViews`), once `finish` ran: each entry's `ItemKey` hashed once, not again in
    /// each pass that reads the views (1,000 devices × 100 keys were hashed five times each).
    var finalCloudItems: [[Int32]] = []
    var finalPublicItems: [Int32] = []
    var finalDeviceItems: [[Int32]?] = []

    init(_ history: History) {
        self.history = history
        // Sized for a start, not for the worst case: a table far larger than what it holds
        // spreads its entries over memory the scan then misses in cache on every fact.
        items = ItemTable(capacity: 1_024)
        graph = WriteGraph(capacity: history.operations.count)
        writes.reserveCapacity(history.operations.count)
        shown = ShownTable(deviceCount: history.deviceNames.count)
        accountOf = Array(repeating: nil, count: history.deviceNames.count)
        for (index, operation) in history.operations.enumerated() {
            let write = writeIndex(operation.write)
            writes[Int(write)].operation = Int32(index)
            writes[Int(write)].operationDevice = operation.device.index
            writes[Int(write)].operationAccount = operation.account
            graph.stamp(write, at: operation.at.microseconds)
        }
    }

    /// The dense index of `id`, giving it one (and its `WriteInfo`) if it has none.
    mutating func writeIndex(_ id: WriteID) -> Int32 {
        let index = graph.index(of: id)
        if Int(index) == writes.count { writes.append(WriteInfo()) }
        return index
    }

    /// The dense id of `item`, giving it one if it has none.
    mutating func itemID(_ item: ItemKey) -> Int32 {
        let id = items.id(of: item)
        if Int(id) == latestWrite.count { latestWrite.append(-1); latestDelete.append(-1); accountOfItem.append(item.account); shown.addItem() }
        return id
    }

    /// The dense id of the item with id `logItem` in `log`'s item table: the item hashed once,
    /// the first time, then read from `itemOfLogItem`. The ids are the ones `itemID(_:)` gives,
    /// in the same first-seen order; two log items spelled differently but equal as `ItemKey`s
    /// get the same id, as they always did.
    mutating func itemID(logItem: Int32, of log: FactLog) -> Int32 {
        if Int(logItem) < itemOfLogItem.count {
            let id = itemOfLogItem[Int(logItem)]
            if id >= 0 { return id }
        } else {
            itemOfLogItem.append(contentsOf: repeatElement(-1, count: max(Int(logItem) + 1, log.itemCount) - itemOfLogItem.count))
        }
        let id = itemID(log.item(logItem))
        itemOfLogItem[Int(logItem)] = id
        return id
    }

    /// The operation that made `write`, if a user operation did.
    func operation(_ write: Int32) -> OperationRecord? {
        let index = writes[Int(write)].operation
        return index >= 0 ? history.operations[Int(index)] : nil
    }

    /// Is `write` the device's own (a user write made there, or its engine's derived write)?
    func isOwn(_ write: Int32, on device: DeviceID) -> Bool {
        writes[Int(write)].operationDevice == device.index || writes[Int(write)].derivedDevice == device.index
    }

    // MARK: Names for explanations

    func name(_ write: Int32) -> String { history.name(of: graph[write]) }

    func deviceName(_ device: DeviceID) -> String {
        device.index >= 0 && Int(device.index) < history.deviceNames.count ? history.deviceNames[Int(device.index)] : "cloud"
    }

    /// Why a derived write was made (nil for a user write, or one no engine explained).
    func derivedWhy(_ write: Int32) -> String? {
        let index = writes[Int(write)].derivedWhy
        return index >= 0 ? derivedWhys[Int(index)] : nil
    }

    /// `B:1 (doc.save "note.txt" on B at 30s)`, or just the name for an engine's own write.
    func describe(_ write: Int32) -> String {
        guard let operation = operation(write) else { return name(write) }
        return "\(name(write)) (\(operation.summary) on \(deviceName(operation.device)) at \(SimDuration(microseconds: operation.at.microseconds)))"
    }

    /// `describe` for a write that may not be in the graph.
    func describe(_ write: WriteID) -> String {
        graph.existingIndex(of: write).map { describe($0) } ?? history.name(of: write)
    }

    /// The account a device is signed into, by name; the first account when signed out.
    func accountLabel(_ account: AccountID?) -> String {
        account.map { history.accountName($0) } ?? history.accountNames.first ?? "main"
    }

    /// An anomaly about one item (store, account, item and field taken from it).
    func anomaly(_ kind: AnomalyKind, _ item: ItemKey, device: String, at: SimInstant, explanation: String,
                 write: String? = nil, replacedBy: String? = nil, limit: String? = nil) -> Anomaly {
        Anomaly(kind: kind, store: item.store, account: history.accountName(item.account), item: item.name,
                field: item.field.isEmpty ? nil : item.field, device: device, at: at, explanation: explanation,
                write: write, replacedBy: replacedBy, limit: limit)
    }

    // MARK: After the scan

    /// The first write a device (lowest index first) still shows for `item`: what stands for
    /// the final value of an item the cloud no longer has.
    func shownFinalWrite(_ item: Int32) -> WriteID? {
        for device in 0..<history.deviceNames.count {
            if let seen = shown[device: Int32(device), item: item], seen.write >= 0 { return graph[seen.write] }
        }
        return nil
    }

    /// The final write of `item`: the cloud's, else the first a device still shows.
    func finalWrite(_ item: Int32) -> WriteID? {
        finalByItem[Int(item)]?.write ?? shownFinalWrite(item)
    }

    /// True if `write` set `item`, a record field, to `null` while keeping its record. That
    /// removal is a value like any other (SPEC §4.3: the losing side of a field both sides of a
    /// merge changed is a lost update; §6: a change a policy drops is lost); only deleting a
    /// whole record loses no data when an edit wins.
    /// A save that re-creates a record its device had deleted is shown (and uploaded) absent on
    /// every field the delete removed and the save does not set (SPEC §4.3: a pending delete and
    /// a save become one save): those removals are the delete's, which the edit-wins rule covers,
    /// not a null the save set (records seeds 2505 and 3036: a concurrent edit of such a field
    /// was reported as beating the re-creating save). So a removal counts only where its device
    /// did not already show the field removed by a delete of the record.
    func isFieldRemoval(_ item: Int32, by write: WriteInfo) -> Bool {
        let key = items[item]
        guard key.store == .records, !key.field.isEmpty,
              let touch = write.touches.first(where: { $0.item == item }), touch.value == .absent else { return false }
        if deletesRecord(named: key.name, write) { return false }
        return touch.replaced < 0 || !deletesRecord(named: key.name, writes[Int(touch.replaced)])
    }

    /// True if `write` deleted the whole record `name` (set its existence item absent).
    func deletesRecord(named name: String, _ write: WriteInfo) -> Bool {
        write.touches.contains { touch in
            let touched = items[touch.item]
            return touch.value == .absent && touched.store == .records && touched.field.isEmpty && touched.name == name
        }
    }
}
