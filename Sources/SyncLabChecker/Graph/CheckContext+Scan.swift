import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory

extension CheckContext {
    /// Applies one fact: the single scan that builds the graph and what each device shows.
    /// - Returns: what changed, for a `visible` fact on a device; nil otherwise.
    /// - Complexity: O(1) hashes per fact (one `ItemKey`, one `WriteID`), plus the items of a
    ///   write that touches several.
    mutating func apply(_ fact: FactRecord) -> VisibleStep? {
        // Nested patterns bind only the payload a case needs: copying whole facts was a third of the scan.
        switch fact.kind {
        case .accountChanged(let account):
            if let device = fact.device { accountOf[Int(device.index)] = account }
        case .notification:
            break
        case .observation(.visible(let item, let value, let write, let cause)):
            guard let device = fact.device else { break }
            return visible(device, itemID(item), value, write, cause)
        case .observation(.derivedWrite(let write, let item, let value, let parents, let why)):
            let index = writeIndex(write)
            if let device = fact.device { writes[Int(index)].derivedDevice = device.index }
            if writes[Int(index)].derivedWhy < 0 {
                writes[Int(index)].derivedWhy = Int32(derivedWhys.count)
                derivedWhys.append(why)
            }
            graph.stamp(index, at: fact.at.microseconds)
            for parent in parents { graph.addEdge(from: index, to: writeIndex(parent)) }
            let itemID = itemID(item)
            if let touch = writes[Int(index)].touches.firstIndex(where: { $0.item == itemID }) {
                writes[Int(index)].touches[touch].value = value
            } else {
                writes[Int(index)].touches.append(Touch(item: itemID, value: value, replaced: Touch.notShown))
            }
        case .observation(.conflictDetected(_, let conflicting, _)):
            conflictCount += 1
            for write in conflicting { writes[Int(writeIndex(write))].inConflict = true }
        case .observation(.conflictShown(_, let conflicting, _, let resolver)):
            for write in conflicting { writes[Int(writeIndex(write))].inConflict = true }
            // Which device's app resolved it, and with which policy, for explanations.
            if let device = fact.device, let resolver {
                let resolution = Int32(resolutions.count)
                resolutions.append(Resolution(device: deviceName(device), policy: resolver.name))
                for write in conflicting { writes[Int(writeIndex(write))].resolution = resolution }
            }
        case .observation(.rejected(let write, _, _, _)):
            writes[Int(writeIndex(write))].rejected = true
        case .observation(.lastWriterWins(let item, let chosen, let over, let rule)):
            let decision = Int32(decisions.count)
            let overIndex = writeIndex(over)
            decisions.append(Decision(item: itemID(item), chosen: writeIndex(chosen), over: overIndex, rule: rule, at: fact.at))
            writes[Int(overIndex)].lostDecisions.append(decision)
        case .observation(.discarded(let write, let item, let reason)):
            let index = writeIndex(write)
            let new = Int32(discards.count)
            discards.append(Discard(item: item, itemIndex: itemID(item), reason: reason, at: fact.at))
            if writes[Int(index)].discard < 0 {
                if writes[Int(index)].derivedDevice >= 0 { discardedDerived.append(index) }
                writes[Int(index)].discard = new
            } else {
                var last = writes[Int(index)].discard
                while discards[Int(last)].next >= 0 { last = discards[Int(last)].next }
                discards[Int(last)].next = new
            }
        case .observation(.note):
            break
        }
        return nil
    }

    /// Applies one `visible` fact of `device` about the item with id `itemID`.
    mutating func visible(_ device: DeviceID, _ itemID: Int32, _ value: ItemValue, _ write: WriteID?, _ cause: VisibilityCause) -> VisibleStep {
        var index: Int32 = -1
        if let write { index = writeIndex(write) }
        return visible(device, itemID, valueID: shown.valueID(value, write: index), value, index, cause)
    }

    /// Applies one `visible` stored fact of `log`, of `device` about the item with id `itemID`:
    /// its value is built only if a pass keeps it (a write shown on its own device).
    mutating func visible(_ device: DeviceID, _ itemID: Int32, _ fact: StoredFact, in log: FactLog) -> VisibleStep {
        var index: Int32 = -1
        if let write = fact.write { index = writeIndex(write) }
        return visible(device, itemID, valueID: shown.valueID(of: fact, in: log, write: index), log.value(of: fact), index, fact.cause)
    }

    /// Applies a `visible` fact whose value has id `valueID` (`value` builds it) and whose write
    /// has the dense index `index` (-1: none).
    private mutating func visible(_ device: DeviceID, _ itemID: Int32, valueID: Int32, _ value: @autoclosure () -> ItemValue,
                                  _ index: Int32, _ cause: VisibilityCause) -> VisibleStep {
        // One probe for the lookup and the update: `shown` now holds the new value, `change` says what it held.
        let change = shown.exchange(device: device.index, item: itemID, write: index, valueID: valueID)
        let before = change.wasShown ? change.previousWrite : Shown.missing.write
        // A write shown on its own device, as the app made it: it was built on what the device
        // showed before, which it replaced.
        if index >= 0, cause == .local, isOwn(index, on: device) {
            if before >= 0 { graph.addEdge(from: index, to: before) }
            record(itemID, index, value(), replacing: before)
        }
        if before >= 0, before != index, index >= 0, isOwn(before, on: device) {
            replacedOnDevice.update(writeItemKey(write: before, item: itemID), default: []) { if $0.count < 4 { $0.append(index) } }
        }
        return VisibleStep(device: device, item: itemID, write: index, value: change.value, cause: cause, previousValue: change.previousValue)
    }

    /// A write shown on its own device: its value on the item, and (the first time) what it replaced.
    private mutating func record(_ item: Int32, _ write: Int32, _ value: ItemValue, replacing previous: Int32) {
        writes[Int(write)].recorded = true
        if let touch = writes[Int(write)].touches.firstIndex(where: { $0.item == item }) {
            writes[Int(write)].touches[touch].value = value
            if writes[Int(write)].touches[touch].replaced == Touch.notShown { writes[Int(write)].touches[touch].replaced = previous }
        } else {
            writes[Int(write)].touches.append(Touch(item: item, value: value, replaced: previous))
        }
        latestWrite[Int(item)] = write
        if value == .absent { latestDelete[Int(item)] = write }
    }

    /// After the last fact: the final values by item id (the cloud's per account, then the
    /// public database's), every final item given an id.
    mutating func finish() {
        finalCloudItems = history.finalCloud.map { view in view.map { itemID($0.item) } }
        finalPublicItems = history.finalPublic.map { itemID($0.item) }
        finalDeviceItems = history.finalDeviceViews.map { view in view.map { view in view.map { itemID($0.item) } } }
        finalByItem = Array(repeating: nil, count: items.count)
        for (view, ids) in zip(history.finalCloud, finalCloudItems) { for (entry, item) in zip(view, ids) { finalByItem[Int(item)] = entry } }
        for (entry, item) in zip(history.finalPublic, finalPublicItems) { finalByItem[Int(item)] = entry }
    }
}
