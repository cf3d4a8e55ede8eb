import SyncLabScenario
import SyncLabKernel
import SyncLabProtocol
import SyncLabEngines

/// Hosting a team's own apps (SPEC §9): the platform tells the app, applies what it answers and
/// carries the write ids, so no app code knows about them.
extension Simulator {
    /// Tells device `index`'s KVS app of a change and applies its store calls.
    ///
    /// Write ids: a value the app sets that the key already shows keeps that value's write (the
    /// app handed back what it was shown: no write); any other value is the app's own write
    /// (`DEVICE:mN`), built on the writes the app has seen: the values it read, and the user's
    /// changes it was told of, since it launched. A blind write is built on nothing it did not see.
    mutating func tellKVSApp(_ index: Int, _ event: KVSAppEvent) {
        // Every read of the device here goes through a mutating call (`kvsLocalValues`, `take`):
        // a plain read of `devices[index].kvs` copies the whole device out of the array first.
        // Taken out while it runs, so the app's value is not shared and mutating it copies nothing.
        guard var app = devices[index].kvsApp.take() else { return }
        devices[index].hasKVSApp = false
        let commands: [KVSAppCommand]
        do {
            // The snapshot shares the engine's storage; it is gone before the engine is written
            // to below, so no write has to copy the store.
            guard let values = devices[index].kvsLocalValues() else {
                devices[index].kvsApp = app
                devices[index].hasKVSApp = true
                return
            }
            if case .userChanged(let keys) = event {
                for key in keys {
                    if values[key]?.value != nil, let write = values[key]?.write { noteKVSAppMadeHere(index, key, write) }
                }
            }
            // The app's reads go straight into the platform's buffer of notes.
            commands = app.handle(event, values: KVSAppSnapshot(values: values), device: Int32(index), notingReadsIn: &kvsAppNotes.notes)
        }
        devices[index].kvsApp = app
        devices[index].hasKVSApp = true
        if kvsAppNotes.isFull { flushKVSAppNotes() }
        guard !commands.isEmpty else { return }
        flushKVSAppNotes()
        let parents = devices[index].kvsAppSeen.parents()
        let why: String
        switch event {
        case .changedExternally(let reason, _): why = "the device's KVS app wrote it on \(reason)"
        case .userChanged: why = "the device's KVS app wrote it after the user's change"
        }
        var context = makeContext(index, .kvs)
        for command in commands {
            // Read through the optional, never binding the engine: a binding would make the write
            // below copy its whole store.
            guard let item = devices[index].kvs?.itemKey(command.key ?? "") else { break }
            switch command {
            case .set(let key, let value):
                if devices[index].kvs?.localValue(forKey: key)?.value == value { continue }
                let write = context.nextDerivedWrite(on: devices[index].id)
                context.observe(.derivedWrite(write: write, item: item, value: value.map(ItemValue.kvs) ?? .absent,
                                              parents: parents, why: why))
                // In place: a copy of the engine would copy its whole store.
                _ = devices[index].kvs?.set([(key: key, value: value)], write: write, cause: .resolution, &context)
                noteKVSAppMadeHere(index, key, write)
            case .synchronize:
                devices[index].kvs?.synchronize(&context)
            }
        }
        finish(&context, index, .kvs)
        retire(consume context)
    }

    /// Notes a write made on device `index` to `key`, for its KVS app's memory.
    mutating func noteKVSAppMadeHere(_ index: Int, _ key: String, _ write: WriteID) {
        if kvsAppNotes.noteMadeHere(key, write, device: index) { flushKVSAppNotes() }
    }

    /// Hands the notes held in `kvsAppNotes` to their devices' memories: each device's at once,
    /// in the order they came.
    mutating func flushKVSAppNotes() {
        guard !kvsAppNotes.isEmpty else { return }
        // Taken out while the devices' memories are written, and put back emptied (its storage
        // kept for the next notes).
        var notes: [KVSAppPendingNotes.Pending] = []
        swap(&notes, &kvsAppNotes.notes)
        let (order, ends) = KVSAppPendingNotes.orderByDevice(notes, devices: devices.count)
        notes.withUnsafeBufferPointer { notes in
            var start = 0
            for (device, end) in ends.enumerated() where end > start {
                // Once a device, before its app's log would first be folded: how many keys its store holds.
                if devices[device].kvsAppSeen.needsStoreKeys(adding: end - start) {
                    devices[device].kvsAppSeen.allowNotes(forKeysInStore: devices[device].kvsLocalValues()?.count ?? 0)
                }
                devices[device].kvsAppSeen.note(notes, at: order[start..<end])
                start = end
            }
        }
        notes.removeAll(keepingCapacity: true)
        swap(&notes, &kvsAppNotes.notes)
    }

    /// Asks device `index`'s document app to resolve the conflict on `path` and carries out its answer.
    mutating func askDocumentsApp(_ index: Int, path: String) {
        guard var app = devices[index].documentsApp, let conflict = devices[index].documents?.conflictForApp(path: path) else { return }
        let resolution = app.resolve(path: path, conflict: conflict)
        devices[index].documentsApp = app
        var context = makeContext(index, .documents)
        devices[index].documents?.resolveForApp(path: path, resolution, &context)
        finish(&context, index, .documents)
        retire(consume context)
    }
}

/// Hosting a team's records app (SPEC §9): the platform engine serves it; the app's disk is
/// read when the device crashes (the app is called only synchronously, so that is what it had
/// persisted after its last call), so a crash keeps exactly what it had persisted.
extension Simulator {
    /// Runs `body` on device `index`'s platform engine and records app, in place (no copy of
    /// either); nothing when the device hosts none. The app's disk is not kept here: a copy held between calls would
    /// make the app's next change copy its whole database.
    mutating func withRecordsApp(_ index: Int, _ context: inout EngineContext,
                                 _ body: (inout SyncEnginePlatform, inout any SyncEngineAppHosting, inout EngineContext) -> Void) {
        // Where they lie: taking them out copied the whole platform engine on every call.
        devices[index].withRecordsApp { platform, app in body(&platform, &app, &context) }
    }

    /// A scenario's records op, reaching device `index`'s records app as what the user did.
    mutating func userDidInRecordsApp(_ index: Int, _ op: StepOp, write: WriteID, _ context: inout EngineContext) -> AppCallResult {
        var outcome: AppCallResult = .rejected(error: "appNotInstalled")
        withRecordsApp(index, &context) { platform, app, context in
            let action: HostedUserAction
            switch op {
            case .recordSave(let change):
                guard change.database == .private else { outcome = .rejected(error: "invalidArguments"); return }
                action = .saveRecord(id: RecordID(zone: change.zone, name: change.name), type: change.type, fields: change.fields)
            case .recordDelete(let database, let zone, let name):
                guard database == .private else { outcome = .rejected(error: "invalidArguments"); return }
                action = .deleteRecord(RecordID(zone: zone, name: name))
            case .zoneCreate(let database, let zone):
                guard database == .private else { outcome = .rejected(error: "invalidArguments"); return }
                action = .createZone(zone)
            case .zoneDelete(let database, let zone, let byUser):
                guard database == .private else { outcome = .rejected(error: "invalidArguments"); return }
                if byUser {
                    outcome = platform.userDeletedZoneInSettings(zone, write: write, app: &app, &context)
                    return
                }
                action = .deleteZone(zone)
            case .recordsSaveAtomic(let database, let zone, let saves, let deletes):
                guard database == .private else { outcome = .rejected(error: "invalidArguments"); return }
                action = .saveAtomically(saves: saves.map { (RecordID(zone: $0.zone, name: $0.name), $0.type, $0.fields) },
                                         deletes: deletes.map { RecordID(zone: zone, name: $0) })
            default:
                outcome = .rejected(error: "invalidArguments")
                return
            }
            outcome = platform.userDid(action, write: write, app: &app, &context)
        }
        return outcome
    }
}
