import SyncLabKernel
import SyncLabJSON
import SyncLabCloud
import SyncLabProtocol
import SyncLabEngines
import SyncLabScenario
import SyncLabHistory

extension Simulator {
    mutating func execute(step: Step) {
        switch step.op {
        case .cloudClockSet(let offset):
            cloudClockOffset = offset
            trace.record(now, .cloudClock, [("offset_us", .int(offset.microseconds)), ("step", .string(step.source))])
            return
        case .cloudOutage(let duration):
            cloud.faults.outageUntil = now + duration
            trace.record(now, .cloudOutage, [("until_us", .int((now + duration).microseconds)), ("step", .string(step.source))])
            return
        case .cloudThrottle(let duration, let retryAfter, let zone):
            var fields: [(String, JSON)] = [("until_us", .int((now + duration).microseconds)), ("retryAfter_us", .int(retryAfter.microseconds))]
            if let zone {
                cloud.faults.busyZones.append(ZoneBusyFault(zone: zone, until: now + duration, retryAfter: retryAfter))
                fields.append(("zone", .string(zone)))
            } else {
                cloud.faults.throttleUntil = now + duration
                cloud.faults.throttleRetryAfter = retryAfter
            }
            trace.record(now, .cloudThrottle, fields + [("step", .string(step.source))])
            return
        case .cloudExpireTokens:
            cloud.expireTokens()
            trace.record(now, .cloudExpireTokens, [("step", .string(step.source))])
            return
        default:
            break
        }
        for index in step.devices { execute(step.op, on: index, source: step.source) }
    }

    mutating func execute(_ op: StepOp, on index: Int, source: String) {
        let name = devices[index].name
        if devices[index].crashed, case .deviceRestart = op {} else if devices[index].crashed {
            // Validation forbids this; kept as a guard so a bad run never crashes the simulator.
            trace.record(now, .skipped, [("device", .string(name)), ("op", .string(op.name)), ("why", .string("device is crashed")), ("step", .string(source))])
            return
        }
        switch op {
        case .airplaneOn:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            setOnline(index, false)
        case .airplaneOff:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            setOnline(index, true)
        case .networkSet(let override):
            devices[index].link.settings = override.applied(to: devices[index].link.settings)
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
        case .appForeground:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            guard devices[index].installed else { return }
            for store in Store.allCases { deliver(.foreground, to: index, store) }
        case .clockSet(let offset):
            devices[index].clock.offset = offset
            trace.record(now, .clock, [("device", .string(name)), ("op", .string(op.name)), ("offset_us", .int(offset.microseconds)), ("step", .string(source))])
        case .clockJump(let by):
            devices[index].clock.offset = devices[index].clock.offset + by
            trace.record(now, .clock, [("device", .string(name)), ("op", .string(op.name)), ("offset_us", .int(devices[index].clock.offset.microseconds)), ("step", .string(source))])
        case .deviceCrash:
            crash(index)
        case .deviceRestart:
            if devices[index].crashed { restart(index) }
        case .appDelete:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            deleteApp(index)
        case .appInstall:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            guard !devices[index].installed else { return }
            devices[index].installed = true
            devices[index].boot &+= 1
            let identity = identity(devices[index])
            flushKVSAppNotes() // the relaunched app starts with an empty memory: the old one's notes go to the old one
            Simulator.installEngines(&devices[index], identity: identity, recovering: false)
            launchEngines(index)
        case .accountSignOut:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            devices[index].account = nil
            let factBatch = nextBatch()
            recordFact(FactRecord(batch: factBatch, at: now, device: devices[index].id, kind: .accountChanged(nil)))
            guard devices[index].installed else { return }
            for store in Store.allCases { deliver(.signedOut, to: index, store) }
        case .accountSignIn(let accountIndex):
            let account = AccountID(index: accountIndex)
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("account", .string(run.accounts[accountIndex])), ("step", .string(source))])
            devices[index].account = account
            devices[index].lastAccount = account
            let factBatch = nextBatch()
            recordFact(FactRecord(batch: factBatch, at: now, device: devices[index].id, kind: .accountChanged(account)))
            guard devices[index].installed else { return }
            for store in Store.allCases { deliver(.signedIn(account), to: index, store) }
        case .cloudClockSet, .cloudOutage, .cloudThrottle, .cloudExpireTokens:
            break // handled once per step above
        case .assert(let spec):
            runAssert(spec, on: index, source: source)
        case .kvsSynchronize:
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            guard devices[index].installed else { return }
            var context = makeContext(index, .kvs)
            devices[index].kvs?.synchronize(&context)
            finish(&context, index, .kvs)
            retire(consume context)
        case .subscriptionCreate(let database):
            trace.record(now, .op, [("device", .string(name)), ("op", .string(op.name)), ("step", .string(source))])
            guard devices[index].installed else { return }
            var context = makeContext(index, .records)
            // A hosted app's platform subscribes to the private database by itself; it has no public one.
            devices[index].records?.createSubscription(database: database, &context)
            finish(&context, index, .records)
            retire(consume context)
        case .kvsSet, .kvsRemove, .kvsIncrement, .docSave, .docAppend, .docDelete, .zoneCreate, .zoneDelete,
             .recordSave, .recordDelete, .recordsSaveAtomic:
            runWrite(op, on: index, source: source)
        }
    }

    /// Runs an app call that may write: gives it the device's next write id and records it.
    mutating func runWrite(_ op: StepOp, on index: Int, source: String) {
        devices[index].writeSequence += 1
        let write = WriteID(device: devices[index].id, sequence: devices[index].writeSequence)
        statistics.operations += 1
        let store: Store
        switch op {
        case .kvsSet, .kvsRemove, .kvsIncrement: store = .kvs
        case .docSave, .docAppend, .docDelete: store = .documents
        default: store = .records
        }
        let summary = Simulator.summary(of: op)
        var outcome: AppCallResult = .rejected(error: "appNotInstalled")
        let operationIndex = history.operations.count
        history.operations.append(OperationRecord(write: write, device: devices[index].id, account: devices[index].account,
            at: now, localAt: devices[index].clock.reading(at: now), op: op.name, summary: summary, outcome: .unchanged))
        if devices[index].installed && store == .records && devices[index].recordsPlatform != nil {
            var context = makeContext(index, store)
            outcome = userDidInRecordsApp(index, op, write: write, &context)
            finish(&context, index, store)
            retire(consume context)
        } else if devices[index].installed {
            var context = makeContext(index, store)
            switch op {
            case .kvsSet(let entries, _):
                outcome = devices[index].kvs?.set(entries.map { (key: $0.key, value: Optional($0.value)) }, write: write, &context) ?? outcome
            case .kvsRemove(let key):
                outcome = devices[index].kvs?.set([(key: key, value: nil)], write: write, &context) ?? outcome
            case .kvsIncrement(let key, let by):
                outcome = devices[index].kvs?.increment(key: key, by: by, write: write, &context) ?? outcome
            case .docSave(let path, let content):
                outcome = devices[index].documents?.save(path: path, content: content, write: write, &context) ?? outcome
            case .docAppend(let path, let text):
                outcome = devices[index].documents?.append(path: path, text: text, write: write, &context) ?? outcome
            case .docDelete(let path):
                outcome = devices[index].documents?.delete(path: path, write: write, &context) ?? outcome
            case .zoneCreate(let database, let zone):
                outcome = devices[index].records?.createZone(database: database, zone: zone, write: write, &context) ?? outcome
            case .zoneDelete(let database, let zone, let byUser):
                outcome = devices[index].records?.deleteZone(database: database, zone: zone, byUser: byUser, write: write, &context) ?? outcome
            case .recordSave(let change):
                outcome = devices[index].records?.save(change, write: write, &context) ?? outcome
            case .recordDelete(let database, let zone, let name):
                outcome = devices[index].records?.delete(database: database, zone: zone, name: name, write: write, &context) ?? outcome
            case .recordsSaveAtomic(let database, let zone, let saves, let deletes):
                outcome = devices[index].records?.saveAtomic(database: database, zone: zone, saves: saves, deletes: deletes, write: write, &context) ?? outcome
            default:
                break
            }
            finish(&context, index, store)
            retire(consume context)
        }
        let recorded: OperationOutcome
        switch outcome {
        case .accepted: recorded = .accepted
        case .unchanged: recorded = .unchanged
        case .rejected(let error): recorded = .rejected(error: error)
        }
        history.operations[operationIndex].outcome = recorded
        trace.operation(now, devices[index].name, op.name, summary: summary, write: history.name(of: write), outcome: recorded,
                        local: devices[index].clock.reading(at: now), source: source)
        if store == .kvs, case .accepted = outcome, devices[index].hasKVSApp {
            let keys: [String]
            switch op {
            case .kvsSet(let entries, _): keys = entries.map(\.key)
            case .kvsRemove(let key), .kvsIncrement(let key, _): keys = [key]
            default: keys = []
            }
            tellKVSApp(index, .userChanged(keys: keys))
        }
    }

    /// `app.delete`: the app's local data goes; pending changes it had are lost, and reported.
    mutating func deleteApp(_ index: Int) {
        guard devices[index].installed else { return }
        batch += 1
        var pending: [(WriteID, ItemKey)] = []
        if let engine = devices[index].kvs { pending += engine.pendingWrites() }
        if let engine = devices[index].documents { pending += engine.pendingWrites() }
        if let engine = devices[index].records { pending += engine.pendingWrites() }
        if let platform = devices[index].recordsPlatform { pending += platform.pendingWrites() }
        // An upload on the wire at an account switch is decided by the old account's answer; the
        // deletion wipes the calls waiting for it, so they are discarded here, or never reported.
        var awaitingAnswer: [(WriteID, ItemKey)] = []
        if let engine = devices[index].kvs { awaitingAnswer += engine.writesAwaitingSwitchAnswer() }
        if let engine = devices[index].documents { awaitingAnswer += engine.writesAwaitingSwitchAnswer() }
        let discards = pending.map { ($0.0, $0.1, "discarded by app deletion") }
            + awaitingAnswer.map { ($0.0, $0.1, "discarded by app deletion (its upload at the account switch was never answered)") }
        for (write, item, reason) in discards {
            let observation = Observation.discarded(write: write, item: item, reason: reason)
            recordFact(FactRecord(batch: batch, at: now, device: devices[index].id, kind: .observation(observation)))
            trace.observation(now, index, observation)
        }
        // The app's data is gone: it now shows nothing (a later install starts from empty), and
        // what a discarded record delete had removed is absent by no write (as at sign-out).
        var gone = localView(index).filter { $0.value != .absent }.map(\.item)
        if let engine = devices[index].records { gone += engine.itemsRemovedByPendingDeletes(in: nil) }
        for item in gone {
            let observation = Observation.visible(item: item, value: .absent, write: nil, cause: .reset)
            recordFact(FactRecord(batch: batch, at: now, device: devices[index].id, kind: .observation(observation)))
            trace.observation(now, index, observation)
        }
        devices[index].kvs = nil; devices[index].documents = nil; devices[index].records = nil
        devices[index].kvsApp = nil; devices[index].hasKVSApp = false; devices[index].documentsApp = nil
        devices[index].recordsApp = nil; devices[index].recordsPlatform = nil
        devices[index].savedRecordsAppDisk = nil; devices[index].savedRecordLabels = nil
        devices[index].savedKVS = nil; devices[index].savedDocuments = nil; devices[index].savedRecords = nil
        devices[index].installed = false
        devices[index].boot &+= 1
        for store in Store.allCases { updateBusy(index, store) }
    }

    /// `kvs.set "theme"`, `doc.save "note.txt"`, `record.save "Notes/n1" {title, body}`.
    static func summary(of op: StepOp) -> String {
        switch op {
        case .kvsSet(let entries, _): return "\(op.name) " + entries.map { "\"\($0.key)\"" }.joined(separator: ", ")
        case .kvsRemove(let key), .kvsIncrement(let key, _): return "\(op.name) \"\(key)\""
        case .docSave(let path, _), .docAppend(let path, _), .docDelete(let path): return "\(op.name) \"\(path)\""
        case .zoneCreate(_, let zone), .zoneDelete(_, let zone, _): return "\(op.name) \"\(zone)\""
        case .recordSave(let change): return "\(op.name) \"\(change.itemName)\" {\(change.fields.map(\.name).joined(separator: ", "))}"
        case .recordDelete(_, let zone, let name): return "\(op.name) \"\(zone)/\(name)\""
        case .recordsSaveAtomic(_, let zone, let saves, let deletes):
            return "\(op.name) \"\(zone)\" (\(saves.count) saves, \(deletes.count) deletes)"
        default: return op.name
        }
    }
}
