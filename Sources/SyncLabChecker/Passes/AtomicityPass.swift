import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

/// `atomicityViolation` (SPEC §6): a moment at which a device showed, for the items of one
/// atomic call or batch, some of that call's values alongside values the call had replaced.
///
/// A moment is the end of a batch: the pass collects the multi-item writes a device showed in
/// the batch and, when it ends, looks at what that device shows for each of their items.
struct AtomicityPass {
    private(set) var anomalies: [Anomaly] = []
    /// (device index, write) pairs touched in this batch; sorted and deduplicated at its end.
    private var touched: [(device: Int32, write: Int32)] = []

    /// A visible change; given the context's writes, not the context (see `NotificationPass.visible`).
    mutating func visible(_ step: VisibleStep, writes: [WriteInfo]) {
        guard step.write >= 0, writes[Int(step.write)].touches.count > 1 else { return }
        touched.append((step.device.index, step.write))
    }

    /// The batch ended: checks each multi-item write shown in it on its device.
    mutating func endBatch(at time: SimInstant, _ context: inout CheckContext) {
        guard !touched.isEmpty else { return }
        let ids = context.graph.ids
        touched.sort { $0.device != $1.device ? $0.device < $1.device : ids[Int($0.write)] < ids[Int($1.write)] }
        var last: (device: Int32, write: Int32)?
        for pair in touched where last.map({ $0.device != pair.device || $0.write != pair.write }) ?? true {
            last = pair
            check(pair.write, on: DeviceID(pair.device), at: time, &context)
        }
        touched.removeAll(keepingCapacity: true)
    }

    private mutating func check(_ write: Int32, on device: DeviceID, at time: SimInstant, _ context: inout CheckContext) {
        let info = context.writes[Int(write)]
        guard info.touches.count > 1, info.recorded else { return }
        let perRecord = Self.atomicPerRecordOnly(write, info, context)
        var showsNew = false
        var showsOld: Int32?
        // Records shown with the write's value, and items shown with a value it replaced, for a
        // write that is atomic per record only: a violation needs both in one record.
        var newRecords: Set<String> = []
        var oldItems: [Int32] = []
        let signedInto = context.accountOf[Int(device.index)]
        for touch in info.touches {
            // A device signed into an account shows nothing of another account (the isolation
            // rule): its leftovers there — a record the sign-in reset beside a deletion or field
            // removal of the call, already absent, that no reset had to touch — are neither
            // part of the call nor what it replaced (mixed seeds 1781, 3675: a call made while
            // signed out, carried into the next account).
            if let signedInto, context.accountOfItem[Int(touch.item)] != signedInto,
               context.accountOfItem[Int(touch.item)] != .publicDatabase { continue }
            let now = context.shown[device: device.index, item: touch.item]
            let nowWrite = now?.write ?? -1
            if nowWrite == write {
                showsNew = true
                if perRecord { newRecords.insert(context.items[touch.item].name) }
                continue
            }
            guard touch.replaced != Touch.notShown, nowWrite == touch.replaced else { continue }
            // The device shows the very value the write put there (a removal of a field already
            // absent, shown as the earlier removal): nothing of the write is missing (records seed 297).
            if (now?.value ?? .absent) == touch.value { continue }
            // A later write to this item that saw the atomic one (a delete of one member, say)
            // may leave it showing what it showed before: no violation (SPEC §6).
            let later = context.latestWrite[Int(touch.item)]
            if later >= 0, later != write, context.graph.observes(later, write),
               context.writes[Int(later)].value(on: touch.item) == now?.value ?? .absent { continue }
            // Likewise an item shown absent that a delete which saw the atomic write removed,
            // even if other writes came after the delete.
            let delete = context.latestDelete[Int(touch.item)]
            if (now?.value ?? .absent) == .absent, delete >= 0, delete != write, context.graph.observes(delete, write) { continue }
            if memberDeleted(touch.item, of: info, write, on: device, &context) { continue }
            if absentInOtherVersion(touch.item, nowWrite, of: info, write, on: device, &context) { continue }
            showsOld = touch.item
            if perRecord { oldItems.append(touch.item) }
        }
        if perRecord { showsOld = oldItems.last { newRecords.contains(context.items[$0].name) } }
        guard showsNew, let oldItem = showsOld else { return }
        let item = context.items[oldItem], name = context.deviceName(device)
        anomalies.append(context.anomaly(.atomicityViolation, item, device: name, at: time,
            explanation: "\(name) showed part of atomic write \(context.name(write)) while \(item.displayName) still had the value that write replaced.",
            write: context.name(write)))
    }

    /// A `records.saveAtomic` into `_defaultZone`: the default zone has no atomic batches (SPEC
    /// §4.3), so the cloud applies such a call record by record, as CloudKit does, and a record
    /// of it refused (too large, say) leaves the others saved. Each record is still saved whole,
    /// so only a record shown in part is a violation; records shown apart are not.
    private static func atomicPerRecordOnly(_ write: Int32, _ info: WriteInfo, _ context: CheckContext) -> Bool {
        guard context.operation(write)?.op == "records.saveAtomic" else { return false }
        return info.touches.allSatisfy { touch in
            let key = context.items[touch.item]
            return key.store == .records && key.name.hasPrefix(RecordID.defaultZone + "/")
        }
    }

    /// A field of a record the device shows deleted by a delete other than the one the atomic
    /// write replaced: deletes are unconditional (SPEC §4.3), so a delete concurrent with the
    /// atomic save removes that member wherever it lands — the call was applied whole and one of
    /// its records was then deleted, which every device ends up showing alike.
    private func memberDeleted(_ item: Int32, of info: WriteInfo, _ write: Int32, on device: DeviceID, _ context: inout CheckContext) -> Bool {
        let key = context.items[item]
        guard key.store == .records,
              let record = key.field.isEmpty ? item : context.items.existingID(of: ItemKey(account: key.account, store: .records, name: key.name, field: "")) else { return false }
        let replaced = info.touches.first { $0.item == record }?.replaced ?? Touch.notShown
        guard let now = context.shown[device: device.index, item: record], now.write >= 0, now.value != .absent else {
            if let now = context.shown[device: device.index, item: record], now.write >= 0 {
                guard now.write != write else { return false }
                // Shown deleted by the very delete the call replaced, and a delete the call had
                // not seen removed the record again since: a fetch lists the record as deleted,
                // which the device already showed, so it still names the earlier delete — but
                // what it shows is the call applied whole and its record then deleted, as the
                // cloud has them (records seed 2867).
                if now.write == replaced { return concurrentlyDeleted(record, write, &context) }
                return !key.field.isEmpty
            }
            // The device never showed the record, and a delete the atomic write had not seen
            // removed it: the device learnt of the record and its deletion together (a fetch
            // lists a record created and deleted since its token as deleted only), so it shows
            // the call whole and then deleted, as the cloud applied them (records seed 108).
            return concurrentlyDeleted(record, write, &context)
        }
        // The device shows the record as a write made apart from the call (neither what the call
        // replaced there nor anything that saw it, say its own creation), and a delete the call
        // had not seen removed the record: that is the record as created again after the delete.
        return now.write != write && now.write != replaced && !context.graph.observes(now.write, write)
            && !context.graph.observes(write, now.write) && concurrentlyDeleted(record, write, &context)
    }

    /// A field the call set that was absent before it, shown absent because the device shows its
    /// record as another version (its own pending concurrent save, held against the call's version
    /// until their conflict is resolved): that absence is that version's, not the value the call
    /// replaced, as a field that version set would be (records seed 2595).
    private func absentInOtherVersion(_ item: Int32, _ nowWrite: Int32, of info: WriteInfo, _ write: Int32, on device: DeviceID, _ context: inout CheckContext) -> Bool {
        let key = context.items[item]
        guard key.store == .records, !key.field.isEmpty, nowWrite == Touch.nothing,
              (context.shown[device: device.index, item: item]?.value ?? .absent) == .absent,
              let record = context.items.existingID(of: ItemKey(account: key.account, store: .records, name: key.name, field: "")),
              let shown = context.shown[device: device.index, item: record], shown.write >= 0, shown.value != .absent
        else { return false }
        let replaced = info.touches.first { $0.item == record }?.replaced ?? Touch.notShown
        return shown.write != write && shown.write != replaced
    }

    /// A delete of the record so far that the atomic write had not seen (it lands after it).
    private func concurrentlyDeleted(_ record: Int32, _ write: Int32, _ context: inout CheckContext) -> Bool {
        let delete = context.latestDelete[Int(record)]
        return delete >= 0 && delete != write && !context.graph.observes(write, delete)
    }
}
