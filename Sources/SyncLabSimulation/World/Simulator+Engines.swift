import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
import SyncLabEngines
import SyncLabHistory
import SyncLabScenario
import SyncLabApps

extension Simulator {
    func identity(_ device: VirtualDevice) -> EngineIdentity {
        Simulator.identity(of: device.id, run: run, options: options)
    }

    /// Who a device's engines run for: the run's settings with the device's own apps (SPEC §9).
    static func identity(of device: DeviceID, run: ScenarioRun, options: SimulationOptions) -> EngineIdentity {
        let spec = run.devices[Int(device.index)]
        let apps = DeviceApps(spec.apps, engine: run.engine)
        var identity = EngineIdentity(device: device, deviceName: spec.id, settings: apps.applied(to: run.engine), limits: run.limits, environment: run.environment)
        if options.apps.documents[apps.documents] != nil { identity.documentsApp = apps.documents }
        if options.apps.records[apps.records] != nil || BuiltInApps.records(named: apps.records) != nil {
            identity.recordsApp = apps.records
        } else if options.hostRecordsPolicies, let policy = RecordConflictPolicy(rawValue: apps.records) {
            // The built-in app hosted in the policy's place (`--host-records-policies`).
            identity.recordsApp = BuiltInApps.recordsAppName(policy)
        }
        return identity
    }

    /// Creates the three engines: from the saved durable state (restart) or fresh (install),
    /// numbering their requests after the last ones the device sent.
    static func installEngines(_ device: inout VirtualDevice, identity: EngineIdentity, recovering: Bool) {
        let sent = device.lastRequestIDs
        // A fresh app's local data belongs to the account the device last signed into, also
        // when it is installed while signed out (the device is still that account's).
        device.kvs = KVSEngine(identity: identity, account: device.account, lastAccount: device.lastAccount,
                               recovering: recovering ? device.savedKVS : nil, requestIDsAfter: sent.kvs)
        device.documents = DocumentEngine(identity: identity, account: device.account, lastAccount: device.lastAccount,
                                          recovering: recovering ? device.savedDocuments : nil, requestIDsAfter: sent.documents)
        if let makeRecordsApp = device.recordsAppFactory {
            // The team's records app on the platform engine: both start from the app's disk.
            if !recovering { device.savedRecordsAppDisk = nil; device.savedRecordLabels = nil }
            let app = makeRecordsApp(device.savedRecordsAppDisk)
            device.recordsApp = app
            device.recordsPlatform = SyncEnginePlatform(identity: identity, account: device.account, lastAccount: device.lastAccount, savedState: app.savedState,
                                                        labels: device.savedRecordLabels, requestIDsAfter: sent.records)
            device.records = nil
        } else {
            device.records = RecordEngine(identity: identity, account: device.account, recovering: recovering ? device.savedRecords : nil,
                                          requestIDsAfter: sent.records)
        }
        device.kvsApp = device.kvsAppFactory?()
        device.hasKVSApp = device.kvsAppFactory != nil
        device.kvsAppSeen = KVSAppReadMemory()
        device.documentsApp = device.documentsAppFactory?()
        // No team app: the built-in app of the device's policy, asked inside the engine's step.
        if device.documentsApp == nil { device.documents?.builtInApp = BuiltInApps.documents(identity.settings.documents.conflict) }
    }

    /// Tells freshly created engines the network state, then that the app launched.
    mutating func launchEngines(_ index: Int) {
        for store in Store.allCases {
            if !devices[index].online { deliver(.connectivity(online: false), to: index, store) }
            deliver(.launched, to: index, store)
        }
    }

    /// Feeds one event to one engine and carries out what it asks.
    mutating func deliver(_ event: EngineEvent, to index: Int, _ store: Store) {
        var context = makeContext(index, store)
        switch store {
        case .kvs: devices[index].kvs?.handle(event, &context)
        case .documents: devices[index].documents?.handle(event, &context)
        case .records:
            if devices[index].recordsPlatform != nil {
                withRecordsApp(index, &context) { platform, app, context in platform.handle(event, app: &app, &context) }
            } else {
                devices[index].records?.handle(event, &context)
            }
        }
        finish(&context, index, store)
        retire(consume context)
    }

    /// The context of one engine step on device `index`'s `store`: the spare one when there is
    /// one (its buffers kept, emptied, from an earlier step, so steady state allocates nothing),
    /// else a new one. Handed back by `retire(_:)` after `finish`.
    ///
    /// Why a spare, not buffers swapped into a new context and back: the new context was destroyed
    /// after every delivery, a call releasing each of its (empty) arrays, 2.5% of the KVS bench's
    /// instructions (kvs17).
    mutating func makeContext(_ index: Int, _ store: Store) -> EngineContext {
        let reading = devices[index].clock.reading(at: now)
        let random = devices[index].engineRandom[store]
        var context: EngineContext
        if var spare = spareContext.take() {
            spare.now = reading
            spare.random = random
            context = spare
        } else {
            context = EngineContext(now: reading, random: random)
        }
        context.tracing = options.recordTrace
        context.observing = options.recordHistory || options.recordTrace
        context.observationsApart = context.observing
        context.derivedWrites = devices[index].derivedWrites
        swap(&context.keysBuffer, &scratchKeys)
        batch += 1
        return context
    }

    /// Keeps a finished context (its buffers emptied by `finish`) for the next `makeContext`. One
    /// is kept: steps nest only when an app's notification makes it write, and the inner step's
    /// context, retired first, gives way to the outer one's.
    mutating func retire(_ context: consuming EngineContext) {
        spareContext = context
    }

    /// Carries out an engine's actions, in order, then updates its busy flag.
    mutating func finish(_ context: inout EngineContext, _ index: Int, _ store: Store) {
        devices[index].keep(random: context.random, derivedWrites: context.derivedWrites, of: store)
        let device = devices[index].id
        // Moved out in order, not copied (see `requestArrives`). Reversed through a buffer
        // pointer: `Array.reverse()` swaps by copying (a retain and a release of each payload,
        // an observation's box under `--check`); the buffer pointer's swap moves the bits.
        context.actions.withUnsafeMutableBufferPointer { $0.reverse() }
        while let action = context.actions.popLast() {
            switch action {
            case .send(let requestID, let body):
                send(RequestEnvelope(requestID: requestID, device: device, account: devices[index].account ?? devices[index].lastAccount, body: body), from: index)
            case .setTimer(let timer, let after):
                let key = TimerKey(device: index, store: store, timer: timer)
                let generation = (timerGenerations[key] ?? 0) &+ 1
                timerGenerations[key] = generation
                queue.push(.timer(device: index, store: store, timer: timer, generation: generation, boot: devices[index].boot), at: now + max(after, .zero))
            case .cancelTimer(let timer):
                let key = TimerKey(device: index, store: store, timer: timer)
                if let generation = timerGenerations[key] { timerGenerations[key] = generation &+ 1 }
            case .notify(let notification):
                recordNotification(notification, device: device)
                trace.notification(now, index, notification)
                if store == .kvs && devices[index].hasKVSApp { appNotifications.append(notification) }
                if store == .documents && notification.reason == "inConflict" && devices[index].documentsApp != nil { appNotifications.append(notification) }
            case .observe(let observation):
                recordObservation(observation, device: device)
                trace.observation(now, index, observation)
            case .observed(let position):
                // Moved out of the buffer into the history (a payload-free note left in its
                // place): lent instead, the observation was copied for the call and the copy
                // destroyed, as a value in memory the callee might reach.
                let observation = context.observations.withUnsafeMutableBufferPointer { observations in
                    let slot = observations.baseAddress.unsafelyUnwrapped + position
                    let observation = slot.move()
                    slot.initialize(to: .note(""))
                    return observation
                }
                if trace.enabled { trace.observation(now, index, observation) }
                recordObservation(observation, device: device)
            case .log(let event, let details):
                trace.log(now, index, store, event, details)
            case .logFields(let line):
                trace.log(now, index, store, context.logs[line])
            }
        }
        // The actions are all taken (the buffer left empty with its capacity); the rest emptied
        // too, for the context's next step (`retire`).
        swap(&context.keysBuffer, &scratchKeys)
        if context.tracing { context.logs.removeAll(keepingCapacity: true) }
        if context.observing { context.observations.removeAll(keepingCapacity: true) }
        updateBusy(index, store)
        // The app hears of changes once the engine's step is done, as an observer on the main
        // queue would; what it writes is a step of its own.
        if !appNotifications.isEmpty {
            // Swapped out (the app's own steps queue theirs meanwhile) and back once empty, so
            // the buffer is reused: a new array per notification was an allocation each.
            var notifications: [AppNotification] = []
            swap(&notifications, &appNotifications)
            notifications.reverse()
            while let notification = notifications.popLast() {
                switch notification.store {
                case .kvs: tellKVSApp(index, .changedExternally(reason: notification.reason, keys: notification.items))
                case .documents: for path in notification.items { askDocumentsApp(index, path: path) }
                case .records: break
                }
                // The keys' array back as the buffer the next step's engine lists keys in
                // (`EngineContext.keysBuffer`): told, the notification lets go of it.
                if scratchKeys.capacity == 0 { scratchKeys = notification.items }
            }
            if appNotifications.isEmpty { swap(&notifications, &appNotifications) }
        }
    }

    mutating func updateBusy(_ index: Int, _ store: Store) {
        // One mutating access of the device (each `devices[index].…` write is a call into the
        // array's accessor: four of them here, after every delivery).
        busyEngines += devices[index].updateBusy(store)
    }

    /// Airplane mode off (true) or on (false).
    mutating func setOnline(_ index: Int, _ online: Bool) {
        guard devices[index].online != online else { return }
        devices[index].online = online
        trace.record(now, online ? .online : .offline, [("device", .string(devices[index].name))])
        if !online { devices[index].link.cut(.offline) }
        guard !devices[index].crashed && devices[index].installed else { return }
        for store in Store.allCases { deliver(.connectivity(online: online), to: index, store) }
        if online {
            for store in Store.allCases {
                if let push = devices[index].heldPushes[store] {
                    devices[index].heldPushes[store] = nil
                    schedulePush(push, to: index)
                }
            }
        }
    }

    /// `device.crash`: volatile memory is lost, durable storage stays.
    mutating func crash(_ index: Int) {
        let pending = (devices[index].kvs?.pendingWrites().isEmpty == false) || (devices[index].documents?.pendingWrites().isEmpty == false)
            || (devices[index].records?.pendingWrites().isEmpty == false) || (devices[index].recordsPlatform?.pendingWrites().isEmpty == false)
        if pending { statistics.crashesWithChangesPending += 1 }
        devices[index].savedKVS = devices[index].kvs?.durable
        devices[index].savedDocuments = devices[index].documents?.durable
        devices[index].savedRecords = devices[index].records?.durable
        devices[index].savedRecordLabels = devices[index].recordsPlatform?.labels ?? devices[index].savedRecordLabels
        devices[index].savedRecordsAppDisk = devices[index].recordsApp?.disk ?? devices[index].savedRecordsAppDisk
        devices[index].kvs = nil; devices[index].documents = nil; devices[index].records = nil
        devices[index].kvsApp = nil; devices[index].hasKVSApp = false; devices[index].documentsApp = nil
        devices[index].recordsApp = nil; devices[index].recordsPlatform = nil
        devices[index].crashed = true
        devices[index].boot &+= 1
        // A dead device transmits nothing: its transfers in progress are cut, as going offline
        // cuts them (SPEC §3.2). Going offline leaves the engine to learn of its cut requests by
        // their timeout (`networkFailure`); here the engine that waited for them is gone, so
        // they stop counting as in flight at once (a request cut on its way up is never
        // answered, and its timeout must not hold up the end of the run).
        devices[index].link.cut(.crash)
        inFlight.removeAll(device: Int32(index))
        devices[index].heldPushes = PerStore(repeating: nil)
        for store in Store.allCases { updateBusy(index, store) }
        trace.record(now, .crash, [("device", .string(devices[index].name))])
    }

    /// `device.restart` (and the heal phase): engines rebuilt from durable storage, app launched.
    mutating func restart(_ index: Int) {
        devices[index].crashed = false
        devices[index].boot &+= 1
        trace.record(now, .restart, [("device", .string(devices[index].name))])
        guard devices[index].installed else { return }
        let identity = identity(devices[index])
        flushKVSAppNotes() // the relaunched app starts with an empty memory: the old one's notes go to the old one
        Simulator.installEngines(&devices[index], identity: identity, recovering: true)
        launchEngines(index)
    }
}

extension ClientEngine {
    /// `isQuiescent`, called on the engine in place (see `Simulator.updateBusy`).
    mutating func isQuiescentInPlace() -> Bool { isQuiescent }
}
