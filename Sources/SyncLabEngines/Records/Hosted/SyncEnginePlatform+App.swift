import SyncLabKernel
import SyncLabProtocol

extension SyncEnginePlatform {
    /// The checker's item for a record (`""`: its existence) of the private database.
    func item(_ id: RecordID, field: String = "") -> ItemKey {
        ItemKey(account: account ?? lastAccount, store: .records, name: id.itemName, field: field)
    }

    /// The item of field `field` of the record whose item is `existence` (its name made once).
    func item(of existence: ItemKey, field: String) -> ItemKey {
        var key = existence
        key.field = field
        return key
    }

    /// Runs one call into the app on the engine's state, and notes what it changed there.
    mutating func callApp(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext,
                          _ body: (inout any SyncEngineAppHosting, inout SyncEngineStateData) -> Void) {
        app.deviceClock = context.now
        body(&app, &state)
        if !state.readded.isEmpty {
            readded.formUnion(state.readded)
            state.readded = []
        }
        // The adapter says whether the app changed the state (no copy of it before each call).
        if state.changedByApp {
            state.changedByApp = false
            stateDirty = true
            sendBlocked = false
        }
    }

    /// Tells the app `event`. What its user sees is read once, at the end of the step.
    mutating func tell(_ event: HostedSyncEvent, _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        callApp(&app, &context) { app, state in app.handle(event, state: &state) }
    }

    /// Tells the app of the state changes since it last heard (`stateUpdate`), at the end of a step.
    mutating func flushState(_ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        // The app may change the state again while told of it: a few rounds, then it waits for the next step.
        for _ in 0..<4 where stateDirty {
            stateDirty = false
            tell(.stateUpdate(state), &app, &context)
        }
    }

    /// Reads what the app shows and reports every change with the write behind it (SPEC §9).
    ///
    /// The app answers with the records that changed since the last reading (or, when it cannot
    /// tell, every record it shows: those equal to the last reading are skipped); only those, and
    /// the items it was shown something new for since, are compared item by item. The first
    /// reading after a launch compares everything (the app's disk may hold less than it showed
    /// before the crash).
    /// - Complexity: what the app's answer costs (O(changed records) for a `SyncRecordStore` the
    ///   platform read last), plus O(k log k) for the k items compared.
    mutating func syncView(_ app: inout any SyncEngineAppHosting, userWrite: WriteID?, _ context: inout EngineContext) {
        defer { reportKeptWrites(&context) }
        let full = !viewRead
        viewRead = true
        // What the app showed at the last reading is what the labels' views hold (the platform
        // keeps no copy of its records): a record's existence and fields shown are the items
        // with a view, and its record entry keeps the change tag it showed. Before the first
        // reading after a launch or an account change, nothing.
        // Each item to compare, with the value it shows now (absent when nothing); for a record's
        // existence, whether the record shows no change tag (one the app made, never saved), and
        // whether it shows the change tag it showed at the last reading (the same server version:
        // the app took no other). An item listed twice is listed with the same value both times.
        // `whole`: the existence of a record read in this reading (its position in `readNow`),
        // listed alone for all its items: its fields follow it in item order, and every other
        // item of its name the reading compares is noted with it (absent), so no item of the
        // record is listed apart (a fetched record is one entry, not one per field).
        var keys: [SyncEnginePlatform.ViewItem] = []
        // The records compared whole in this reading, by item name, and the ones gone from it.
        var readNow = HostedReadRecords()
        var removedNow: Set<String> = []
        // Records read as a server version shown in this reading, compared item by item, that
        // may now show exactly that version (`RecordEntry.anchorIfShown`). (Those read as a
        // version over the view of an earlier one keep the two in `readNow`.)
        var shownAsSent: [(position: Int, server: ServerRecord)] = []
        let answer = app.viewChanges(full: full)
        if !full, let answer, readVersionsOnly(answer, userWrite: userWrite, &context) { return }
        if let changes = answer {
            // A record's existence (its fields too, in the first reading), and the items a fetch
            // touched: room for them at once (the list grew one reallocation at a time).
            keys.reserveCapacity((full ? 3 : 1) * changes.changed.count + changes.removed.count + labels.touched.count)
            var removed = changes.removed
            if changes.complete && !full {
                // Every record the app shows: the ones the platform showed and no longer sees are gone.
                var present: Set<String> = []
                for record in changes.changed { present.insert(record.itemName) }
                let account = account ?? lastAccount
                for (recordKey, entry) in labels.records where recordKey.account == account && entry.view("") != nil && !present.contains(recordKey.name) {
                    if let id = recordID(ofName: recordKey.name) { removed.append(id) }
                }
            }
            for record in changes.changed {
                let existence = ItemKey(account: account ?? lastAccount, store: .records, name: record.itemName)
                let recordKey = RecordLabels.RecordKey(existence)
                // Looked up once: read, then its change tag written where it lies.
                let index = labels.records.index(forKey: recordKey)
                // A server version just shown that the app shows as it came, over a view that
                // was exactly an earlier version: compared version to version below (no item of
                // the entry read, no copy of it made).
                if !full && !changes.complete && viewJournal == nil, let index,
                   let versions = labels.records.values[index].pendingShown(as: record) {
                    labels.records.values[index].changeTag = record.changeTag
                    let position = readNow.set(record, for: existence.name, versions: versions)
                    keys.append((existence, .recordExists(type: record.type), false, false, position))
                    continue
                }
                let before = full ? nil : index.map { labels.records.values[$0] }
                // Of a complete answer, a record shown as it was needs no comparison. (One the app
                // says it changed is compared: comparing an unchanged one reports nothing.)
                if changes.complete && !full, let before, RecordLabels.shows(record, in: before) { continue }
                let shownBefore = before?.view("") != nil
                let sameVersion = record.changeTag != nil && shownBefore && before?.changeTag == record.changeTag
                if let index {
                    labels.records.values[index].changeTag = record.changeTag
                } else {
                    labels.records[recordKey] = RecordLabels.RecordEntry(changeTag: record.changeTag)
                }
                let position = readNow.set(record, for: existence.name)
                if full {
                    // The first reading lists every item apart: the items the platform showed
                    // that nothing lists are found gone by key below.
                    keys.append((existence, .recordExists(type: record.type), record.changeTag == nil, sameVersion, nil))
                    record.forEachField { name, value in keys.append((item(of: existence, field: name), .field(value), false, false, nil)) }
                    continue
                }
                keys.append((existence, .recordExists(type: record.type), record.changeTag == nil, sameVersion, position))
                if let before {
                    before.forEachFieldShown { name in
                        if !record.shows(field: name) { readNow.noteAbsent(name, at: position) }
                    }
                }
            }
            for id in removed {
                let existence = item(id)
                keys.append((existence, .absent, false, false, nil))
                removedNow.insert(existence.name)
                readNow[existence.name] = nil
                guard !full, let before = labels.records[RecordLabels.RecordKey(existence)] else { continue }
                before.forEachFieldShown { name in keys.append((item(of: existence, field: name), .absent, false, false, nil)) }
            }
        }
        // A record gone from the cloud (its zone deleted, a fetched deletion, `unknownItem`) that
        // the app now shows afresh, with no change tag (it will send it as a new record), is
        // re-stamped now, as the built-in engine re-stamps it when it learns of the delete: shown
        // with the cloud's old writes until it is sent, it would show the delete in part (a zone
        // delete removes every record of the zone at once; records seed 135).
        if !labels.goneInCloud.isEmpty {
            for entry in keys where entry.tagless && labels.goneInCloud.contains(entry.key) {
                guard let record = readNow[entry.key.name] else { continue }
                labels.goneInCloud.remove(entry.key)
                restampReupload(HostedRecord(id: record.id, type: record.type, fields: record.fields, changeTag: nil), &context)
            }
        }
        // Items shown something new (a fetch, a save's answer) may now show a newer write. They
        // come record by record (a record's existence, then its fields): the record compared in
        // this reading is looked up once per run of its items, not once per item.
        var run: (name: String, position: Int?)?
        for touched in labels.touched {
            listTouched(touched.key, full: full, removedNow: removedNow, run: &run, readNow: &readNow, keys: &keys)
            guard let server = touched.server else { continue }
            let fields = server.fields
            // A server record's fields: none to compare apart when the record read in this
            // reading shows every one of them (mostly the app stored the version as it came,
            // and shows the very fields the cloud sent: no field name is hashed).
            if let position = run?.position, readNow.showsEvery(ofValued: fields, at: position) {
                if !full && !readNow.readAsVersions(at: position) { shownAsSent.append((position, server)) }
                continue
            }
            for name in fields.keys { listTouched(item(of: touched.key, field: name), full: full, removedNow: removedNow, run: &run, readNow: &readNow, keys: &keys) }
        }
        // Emptied in place: the next fetch lists its items in the same buffer. (Mostly it is
        // empty already: most readings follow a step that fetched nothing.)
        if !labels.touched.isEmpty { labels.touched.removeAll(keepingCapacity: true) }
        if full {
            // Items the platform had shown that the app's answer and the touched items did not list: gone.
            let listed = Set(keys.lazy.map(\.key))
            for key in labels.viewKeys where !listed.contains(key) { keys.append((key, .absent, false, false, nil)) }
        }
        guard !keys.isEmpty else { return }
        // Often in order already (one record: its existence, then its fields): checked in one
        // pass, and the stable sort, which would leave them as they are, is skipped.
        if !SyncEnginePlatform.inItemOrder(keys) { keys.sort { SyncEnginePlatform.precedes($0.key, $1.key) } }
        var shownLater: Set<WriteID> = []
        defer { if !shownLater.isEmpty { labels.ownLater.subtract(shownLater) } }
        var last: ItemKey?
        // The sorted keys come record by record: each record's entry is looked up once for its
        // items (nil: none yet), and read and written where it lies. Forgotten whenever the
        // memory may gain a record (a new label), which may move the entries.
        var record: ViewRecordPlace?
        for (key, value, tagless, sameVersion, whole) in keys where key != last {
            last = key
            if let whole, let read = readNow.versions(at: whole) {
                compareVersions(key, from: read.anchor, to: read.pending, userWrite: userWrite, shownLater: &shownLater, &context)
                record = nil
                continue
            }
            compareView(key, value, tagless: tagless, sameVersion: sameVersion, userWrite: userWrite, record: &record, shownLater: &shownLater, &context)
            guard let whole, let read = readNow.record(at: whole) else { continue }
            // A record read whole: its fields (and the ones it no longer shows) in item order.
            let absent = readNow.absentFields(at: whole)
            if absent.isEmpty && read.fieldCount <= 1 {
                read.forEachField { name, value in
                    compareView(item(of: key, field: name), .field(value), tagless: false, sameVersion: false, userWrite: userWrite, record: &record, shownLater: &shownLater, &context)
                }
                continue
            }
            var fields: [(name: String, value: ItemValue)] = []
            fields.reserveCapacity(read.fieldCount + absent.count)
            read.forEachField { name, value in fields.append((name, .field(value))) }
            for name in absent { fields.append((name, .absent)) }
            fields.sort { SyncEnginePlatform.utf8Precedes($0.name, $1.name) }
            var lastField: String?
            for (name, value) in fields where name != lastField {
                lastField = name
                compareView(item(of: key, field: name), value, tagless: false, sameVersion: false, userWrite: userWrite, record: &record, shownLater: &shownLater, &context)
            }
        }
        // Records compared item by item that the app shows as a server version shown in this
        // reading: if the view is now exactly that version, the next one can be compared
        // version to version.
        for (position, server) in shownAsSent {
            guard let read = readNow.record(at: position), read.changeTag == server.changeTag, read.type == server.type,
                  let index = labels.records.index(forKey: RecordLabels.RecordKey(item(server.id))) else { continue }
            labels.records.values[index].anchorIfShown(server)
        }
    }

    /// Compares the record whose existence is `existence`, which the app shows as server version
    /// `pending` as it came, with what it showed, exactly version `anchor` (`syncView`): what
    /// `compareView` reports item by item, read from the two versions, which every device
    /// shown them shares (not from the device's labels), in item order; the entry notes the
    /// version shown (`RecordEntry.showPending`), as `compareView` would have set each view.
    /// `index`: where the record's entry lies, when the caller found it and the label memory
    /// gained no record since (the entry is then written there, not looked up again).
    private mutating func compareVersions(_ existence: ItemKey, at index: [RecordLabels.RecordKey: RecordLabels.RecordEntry].Index? = nil,
                                          from anchor: ServerRecord, to pending: ServerRecord, userWrite: WriteID?,
                                          shownLater: inout Set<WriteID>, _ context: inout EngineContext) {
        compareVersion(existence, shown: RecordLabels.RecordEntry.existenceLabel(of: anchor), now: RecordLabels.RecordEntry.existenceLabel(of: pending),
                       userWrite: userWrite, shownLater: &shownLater, &context)
        let before = anchor.fields, now = pending.fields
        if now.count == 1 {
            for (name, field) in now {
                compareVersion(item(of: existence, field: name), shown: RecordLabels.RecordEntry.field(name, of: before).map(RecordLabels.RecordEntry.fieldLabel),
                               now: RecordLabels.RecordEntry.fieldLabel(field), userWrite: userWrite, shownLater: &shownLater, &context)
            }
        } else if !now.isEmpty {
            // The anchor's fields are all the pending version's (`pendingShown`).
            for name in now.keys.sorted(by: SyncEnginePlatform.utf8Precedes) {
                compareVersion(item(of: existence, field: name), shown: RecordLabels.RecordEntry.field(name, of: before).map(RecordLabels.RecordEntry.fieldLabel),
                               now: RecordLabels.RecordEntry.fieldLabel(now[name]!), userWrite: userWrite, shownLater: &shownLater, &context)
            }
        }
        if let index {
            labels.records.values[index].changeTag = pending.changeTag
            labels.records.values[index].showPending()
            return
        }
        labels.withRecord(existence) { entry in
            entry.changeTag = pending.changeTag
            entry.showPending()
        }
    }

    /// The common reading after a fetch, done without the lists the general one makes: every
    /// record the app changed is a server version just shown to it, shown as it came over the
    /// view of an earlier version (`RecordEntry.pendingShown`), and the items the fetch touched
    /// are exactly those records' (their existence with the very version, in the same order:
    /// the app stored what it was told in turn). Then the general reading would compare only
    /// them, version to version, in item order, and so does this; false, changing nothing,
    /// when any of it does not hold.
    private mutating func readVersionsOnly(_ changes: HostedViewChanges, userWrite: WriteID?, _ context: inout EngineContext) -> Bool {
        guard !changes.complete, changes.removed.isEmpty, !changes.changed.isEmpty, viewJournal == nil,
              labels.touched.count == changes.changed.count else { return false }
        let account = account ?? lastAccount
        // Each record with where its entry lies: nothing below adds a record to the label memory
        // (an observation, the unconfirmed writes, `ownLater` are other tables), so the places
        // stay valid and the entry is written there (a second probe of a cold entry per fetched
        // record per device, session 16).
        var read: [(existence: ItemKey, index: [RecordLabels.RecordKey: RecordLabels.RecordEntry].Index, anchor: ServerRecord, pending: ServerRecord)] = []
        read.reserveCapacity(changes.changed.count)
        for (record, touched) in zip(changes.changed, labels.touched) {
            let existence = ItemKey(account: account, store: .records, name: record.itemName)
            guard touched.key == existence, let server = touched.server,
                  let index = labels.records.index(forKey: RecordLabels.RecordKey(existence)),
                  let versions = labels.records.values[index].pendingShown(as: record), versions.pending.sharesStorage(with: server) else { return false }
            read.append((existence, index, versions.anchor, versions.pending))
        }
        if read.count > 1 && !SyncEnginePlatform.namesInOrder(read.lazy.map(\.existence.name)) {
            read.sort { SyncEnginePlatform.utf8Precedes($0.existence.name, $1.existence.name) }
        }
        var shownLater: Set<WriteID> = []
        for (existence, index, anchor, pending) in read {
            compareVersions(existence, at: index, from: anchor, to: pending, userWrite: userWrite, shownLater: &shownLater, &context)
        }
        if !shownLater.isEmpty { labels.ownLater.subtract(shownLater) }
        labels.touched.removeAll(keepingCapacity: true)
        return true
    }

    /// Whether `names` are in UTF-8 order (equal neighbours allowed).
    static func namesInOrder<Names: Sequence<String>>(_ names: Names) -> Bool {
        var last: String?
        for name in names {
            if let last, utf8Precedes(name, last) { return false }
            last = name
        }
        return true
    }

    /// `compareView` for an item that showed `shown` (nil: absent) and now shows `now`, the
    /// latest value remembered for it (a server version's, which is what it answers).
    private mutating func compareVersion(_ key: ItemKey, shown: RecordLabels.Labeled?, now: RecordLabels.Labeled, userWrite: WriteID?,
                                         shownLater: inout Set<WriteID>, _ context: inout EngineContext) {
        guard shown?.value != now.value || shown?.write != now.write, let write = now.write else { return }
        let cause: VisibilityCause
        if shown?.value == now.value {
            // `compareView`'s first case: the same value by a newer write.
            cause = write.derived && write.device == identity.device ? .resolution : .fetch
        } else if write == userWrite || (!labels.ownLater.isEmpty && labels.ownLater.contains(write)) {
            cause = .local
            shownLater.insert(write)
        } else {
            cause = write.derived && write.device == identity.device ? .resolution : .fetch
        }
        context.observe(.visible(item: key, value: now.value, write: write, cause: cause))
        if now.value == .absent {
            labels.absentShown[key] = write
        } else if !labels.absentShown.isEmpty {
            labels.absentShown[key] = nil
        }
        noteUnconfirmed(key, nil)
    }

    /// Lists touched item `key` for a reading (`syncView`): apart, with what it shows now,
    /// unless its record is read whole in this reading (`run`: the last record looked up there),
    /// which lists it already or notes it absent. (A method, not a function nested in the
    /// reading: the lists it captured were boxed, every access to them checked at run time.)
    private func listTouched(_ key: ItemKey, full: Bool, removedNow: Set<String>, run: inout (name: String, position: Int?)?,
                             readNow: inout HostedReadRecords, keys: inout [ViewItem]) {
        var value = ItemValue.absent
        var tagless = false, sameVersion = false
        if run?.name != key.name { run = (key.name, readNow.isEmpty ? nil : readNow.position(of: key.name)) }
        if let position = run?.position {
            // A record compared whole in this reading lists its existence and every field it
            // shows already, with these values; a field it does not show is noted with it.
            if key.field.isEmpty || readNow.shows(field: key.field, at: position) { return }
            if !full && key.account == account ?? lastAccount {
                readNow.noteAbsent(key.field, at: position)
                return
            }
        } else if !full && !removedNow.contains(key.name), let entry = labels.records[RecordLabels.RecordKey(key)],
                  let shown = entry.view(key.field) {
            // Not read in this reading: it shows what it showed at the last one.
            value = shown.value
            if key.field.isEmpty {
                tagless = entry.changeTag == nil
                sameVersion = !tagless
            }
        }
        keys.append((key, value, tagless, sameVersion, nil))
    }

    /// One item to compare in a reading of the view (`syncView`).
    typealias ViewItem = (key: ItemKey, value: ItemValue, tagless: Bool, sameVersion: Bool, whole: Int?)

    /// Where a reading found the record entry of the items it compares (nil index: none yet).
    typealias ViewRecordPlace = (key: RecordLabels.RecordKey, index: [RecordLabels.RecordKey: RecordLabels.RecordEntry].Index?)

    /// Compares item `key`, which shows `value` now, with what the app showed at the last
    /// reading, and reports a change with the write behind it (`syncView`). `record`: the
    /// record entry the reading looked up last, kept while the items of its record follow.
    private mutating func compareView(_ key: ItemKey, _ value: ItemValue, tagless: Bool, sameVersion: Bool, userWrite: WriteID?,
                                      record: inout ViewRecordPlace?, shownLater: inout Set<WriteID>, _ context: inout EngineContext) {
        // The record's key made only when the run of its items begins.
        if record == nil || record?.key.name != key.name || record?.key.account != key.account {
            let recordKey = RecordLabels.RecordKey(key)
            record = (recordKey, labels.records.index(forKey: recordKey))
            // Compared item by item: the versions its entry keeps are applied first, once.
            if let index = record?.index { labels.records.values[index].applyVersions() }
        }
        var place = record?.index.flatMap { index in labels.records.values[index].position(of: key.field).map { (index, $0) } }
        // The item's view and latest value read in place: a copy of its entry would retain
        // (touch) its list of earlier values, which only the rare paths below need.
        let view = place.flatMap { labels.records.values[$0.0].view(at: $0.1) }
        if let current = view, current.value == value {
            // The app was just shown the value it shows by a newer write (a fetch, a save's
            // answer): it now shows that write, as the built-in engine reports it.
            guard let latest = place.flatMap({ labels.records.values[$0.0].latest(at: $0.1) }), latest.value == value, let write = latest.write, write != current.write else { return }
            // A record shown with the change tag it had: the app still shows the version it
            // showed (a conflict it has not settled yet), not the one the cloud just showed it.
            if sameVersion { return }
            // A record the app made and still shows as its own (no change tag, its creation
            // not yet carried by the cloud) is not another device's creation of that name the
            // cloud showed it (every creation of a type has the same value): a concurrent
            // creation the app has not settled yet. (Not `unconfirmed`: a sign-in clears it,
            // and a record saved signed out is the app's own until the cloud takes it.)
            if tagless, latest.fromCloud, let own = current.write, own.device == identity.device,
               place.map({ labels.records.values[$0.0].items[$0.1].entry })?.shown.contains(where: { $0.write == own && $0.fromCloud }) != true { return }
            let cause: VisibilityCause = write.derived && write.device == identity.device ? .resolution : .fetch
            context.observe(.visible(item: key, value: value, write: write, cause: cause))
            if !labels.absentShown.isEmpty { labels.absentShown[key] = nil }
            setView(key, latest, at: place, showing: current)
            noteUnconfirmed(key, latest.fromCloud ? nil : write)
            return
        }
        if view == nil && value == .absent {
            // A field the app does not show, which a record from the cloud just showed it removed
            // (the cloud keeps a removal with its write): absent by that removal, as the built-in
            // engine shows a fetched removal. With no write, the device's absence would read as
            // older than every value the removal replaced (records seeds 432, 514, 1711: a device
            // that fetched a record whose field another device had set and then removed showed the
            // record's creation beside the absence that creation replaced, half an atomic write).
            // Not over the user's own removal: the app still shows it (a conflict it has not
            // settled yet, records seed 2664: shown by the server's removal in the failure, the
            // field read as part of that other device's save while its other fields were not).
            let shownBy = labels.absentShown.isEmpty ? nil : labels.absentShown[key]
            guard shownBy?.device != identity.device,
                  let latest = place.flatMap({ labels.records.values[$0.0].latest(at: $0.1) }), latest.value == .absent, latest.fromCloud,
                  let write = latest.write, shownBy != write else { return }
            let cause: VisibilityCause = write.derived && write.device == identity.device ? .resolution : .fetch
            context.observe(.visible(item: key, value: .absent, write: write, cause: cause))
            labels.absentShown[key] = write
            return
        }
        let labeled: RecordLabels.Labeled
        if let known = place.map({ labels.known(at: $0.0, $0.1, value) }) ?? nil {
            labeled = known
        } else {
            labeled = label(key, value, &context)
            record = nil
            place = nil
        }
        let cause: VisibilityCause
        if let write = labeled.write {
            // (`ownLater` is mostly empty: a lookup would hash the write even then.)
            if write == userWrite || (!labels.ownLater.isEmpty && labels.ownLater.contains(write)) {
                cause = .local
                shownLater.insert(write)
            } else {
                cause = write.derived && write.device == identity.device ? .resolution : .fetch
            }
        } else {
            cause = .reset
        }
        context.observe(.visible(item: key, value: value, write: labeled.write, cause: cause))
        if value == .absent, let write = labeled.write {
            labels.absentShown[key] = write
        } else if !labels.absentShown.isEmpty {
            labels.absentShown[key] = nil
        }
        setView(key, value == .absent ? nil : labeled, at: place, showing: view)
        noteUnconfirmed(key, value == .absent || labeled.fromCloud ? nil : labeled.write)
    }

    /// Whether `keys` are in item order (`ItemKey`'s `<`; equal neighbours allowed).
    static func inItemOrder(_ keys: [ViewItem]) -> Bool {
        var index = 1
        while index < keys.count {
            if precedes(keys[index].key, keys[index - 1].key) { return false }
            index += 1
        }
        return true
    }

    /// `lhs < rhs` exactly as `ItemKey` orders them, the names' and fields' UTF-8 bytes compared
    /// in place: the generic comparison of the UTF-8 views was most of the sort's cost.
    @inline(__always)
    static func precedes(_ lhs: ItemKey, _ rhs: ItemKey) -> Bool {
        if lhs.account != rhs.account { return lhs.account < rhs.account }
        if lhs.store != rhs.store { return lhs.store < rhs.store }
        if lhs.name != rhs.name { return utf8Precedes(lhs.name, rhs.name) }
        return utf8Precedes(lhs.field, rhs.field)
    }

    /// `lhs.utf8.lexicographicallyPrecedes(rhs.utf8)`, over contiguous bytes when both have them.
    static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        let bytewise = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] { return left[index] < right[index] }
                return left.count < right.count
            }
        }
        if let precedes = bytewise ?? nil { return precedes }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// What the app kept of each field both sides changed in a conflict it was shown, now that
    /// its view is read: when it kept one side's edit and that edit is the later by the editing
    /// devices' clocks, it settled the field by last-writer-wins, and the platform says so as the
    /// built-in engine's merge does (the app knows no write ids). A value of its own making is
    /// a derived write built on both; keeping the earlier edit is no last-writer-wins, and the
    /// checker judges the beaten edit as it finds it.
    ///
    /// An app that still shows its earlier edit and has not sent the record again has not
    /// answered yet (it may settle once a fetch shows the rest of what the cloud has, as the
    /// built-in apps do in custom zones): the field waits for a later reading.
    private mutating func reportKeptWrites(_ context: inout EngineContext) {
        guard !fieldConflicts.isEmpty else { return }
        let conflicts = fieldConflicts
        fieldConflicts = []
        let name = identity.recordsApp ?? "records app"
        for conflict in conflicts {
            guard let kept = labels.view(conflict.item)?.write else { continue }
            let chosen: StoredField, over: StoredField
            if kept == conflict.ours.write {
                (chosen, over) = (conflict.ours, conflict.theirs)
                if (chosen.modifiedAt, chosen.write) < (over.modifiedAt, over.write), let id = recordID(of: conflict.item),
                   !state.pendingRecordChanges.contains(.save(id)) {
                    fieldConflicts.append(conflict)
                    continue
                }
            } else if kept == conflict.theirs.write {
                (chosen, over) = (conflict.theirs, conflict.ours)
            } else {
                continue
            }
            guard (chosen.modifiedAt, chosen.write) > (over.modifiedAt, over.write) else { continue }
            // The rule names the app, the resolver (the checker's explanations say who decided).
            context.observe(.lastWriterWins(item: conflict.item, chosen: chosen.write, over: over.write, rule: "record field modification date (decided by \(name))"))
        }
    }

    /// Shows `labeled` for `key` (nil: absent), journalled during a user's action.
    /// `setView` for an item whose entry lies at `place` (record index, item position; nil:
    /// looked up) and showed `before`: written there.
    private mutating func setView(_ key: ItemKey, _ labeled: RecordLabels.Labeled?,
                                  at place: ([RecordLabels.RecordKey: RecordLabels.RecordEntry].Index, Int)?, showing before: RecordLabels.Labeled?) {
        guard let (index, position) = place else { return setView(key, labeled) }
        if viewJournal != nil, viewJournal?[key] == nil { viewJournal?[key] = .some(before) }
        labels.records.values[index].items[position].entry.view = labeled
    }

    private mutating func setView(_ key: ItemKey, _ labeled: RecordLabels.Labeled?) {
        if viewJournal != nil, viewJournal?[key] == nil { viewJournal?[key] = .some(labels.view(key)) }
        labels.setView(key, labeled)
    }

    /// Keeps `unconfirmed` for `key`: the device's own write it now shows, if any.
    private mutating func noteUnconfirmed(_ key: ItemKey, _ write: WriteID?) {
        if let write, write.device == identity.device {
            labels.unconfirmed[key] = write
        } else if !labels.unconfirmed.isEmpty {
            // Removing from an empty dictionary still hashes the key: mostly it is empty.
            labels.unconfirmed[key] = nil
        }
    }

    /// At a launch: edits the app showed that never reached the cloud and that the engine's
    /// state (the serialization the app handed back) holds no pending save for, by item.
    func forgottenChanges() -> [(key: ItemKey, write: WriteID)] {
        guard !labels.unconfirmed.isEmpty else { return [] }
        var pendingSaves: Set<RecordID> = []
        for change in state.pendingRecordChanges { if case .save(let id) = change { pendingSaves.insert(id) } }
        var forgotten: [(key: ItemKey, write: WriteID)] = []
        for key in labels.unconfirmed.keys.sorted() {
            guard let id = recordID(of: key), !pendingSaves.contains(id), let write = labels.unconfirmed[key] else { continue }
            forgotten.append((key, write))
        }
        return forgotten
    }

    /// Says what `forgottenAtLaunch` holds: nothing will send those edits. An app that persisted
    /// its records may still show them (and add them again); if nothing carries them, the
    /// checker reports them lost with this reason rather than guessing at what replaced them.
    mutating func noteForgottenChanges(_ context: inout EngineContext) {
        let forgotten = forgottenAtLaunch
        forgottenAtLaunch = []
        guard !forgotten.isEmpty else { return }
        let names = forgotten.map(\.key.displayName)
        context.log("pendingChangesForgotten", [("items", names.joined(separator: ","))])
        context.observe(.note("the engine state the app handed back at launch holds no pending save for \(names.joined(separator: ", ")), which the app showed with edits never sent"))
        for (key, write) in forgotten {
            context.observe(.discarded(write: write, item: key,
                                       reason: "the app relaunched after a crash and handed the engine a state serialization with no pending save for it"))
        }
    }

    /// The record an item of this platform's account names (`ZONE/NAME`: the zone has no `/`).
    func recordID(of key: ItemKey) -> RecordID? { recordID(ofName: key.name) }

    /// The record an item name (`ZONE/NAME`) names.
    func recordID(ofName name: String) -> RecordID? {
        guard let slash = name.firstIndex(of: "/") else { return nil }
        return RecordID(zone: String(name[..<slash]), name: String(name[name.index(after: slash)...]))
    }

    /// The write behind `value` on `item`: the one the app was shown it with, else a new write
    /// of the device's own built on what the app had seen there. An absence the app was never
    /// shown has no write (data dropped); `mint` gives it one anyway (a delete the app sends).
    mutating func label(_ key: ItemKey, _ value: ItemValue, mint: Bool = false, _ context: inout EngineContext) -> RecordLabels.Labeled {
        if let known = labels.known(key, value) { return known }
        if value == .absent && !mint { return RecordLabels.Labeled(value: value, write: nil, modifiedAt: context.now) }
        let write = context.nextDerivedWrite(on: identity.device)
        context.observe(.derivedWrite(write: write, item: key, value: value, parents: labels.seen(key), why: "the device's records app wrote it"))
        labels.remember(key, value, write, at: context.now)
        return RecordLabels.Labeled(value: value, write: write, modifiedAt: context.now)
    }

    /// Remembers a server record's values as shown to the app; returns the record's existence
    /// item (its `ZONE/NAME` made once: a caller that needs the name shares that string).
    @discardableResult
    mutating func rememberServer(_ server: ServerRecord) -> ItemKey {
        let existence = item(server.id)
        // The record's entry is looked up once for all its items (labels are kept per record):
        // the version is kept there, applied item by item only when the view may not be what
        // it was (`RecordLabels.RecordEntry`).
        labels.withRecord(existence) { record in record.remember(version: server) }
        if RecordLabels.RecordEntry.removesAField(server) {
            // Item by item (a removed field is compared apart, as absent).
            labels.touched.append(RecordLabels.Touched(key: existence, server: nil))
            for name in server.fields.keys { labels.touched.append(RecordLabels.Touched(key: item(of: existence, field: name), server: nil)) }
        } else {
            // Its existence and every field, as one entry (`RecordLabels.Touched`).
            labels.touched.append(RecordLabels.Touched(key: existence, server: server))
        }
        if !labels.sameValueMerges.isEmpty { keepSameValueMerges(server) }
        // Looked up only when not empty (mostly they are: a lookup hashes the item even then).
        guard !labels.unconfirmed.isEmpty || !labels.goneInCloud.isEmpty else { return existence }
        if !labels.unconfirmed.isEmpty, labels.unconfirmed[existence] == server.existenceWrite { labels.unconfirmed[existence] = nil }
        if !labels.goneInCloud.isEmpty { labels.goneInCloud.remove(existence) }
        for (name, field) in server.fields {
            let key = item(of: existence, field: name)
            if !labels.unconfirmed.isEmpty, labels.unconfirmed[key] == field.write { labels.unconfirmed[key] = nil }
        }
        return existence
    }

    /// Record `id` is gone from the cloud while the app has a save of it to send (`writes`: that
    /// save's own edits): a conflict the app settles by sending it again as a new record (as
    /// Apple's sample does, and the built-in engine): the edit wins, reported once per deletion.
    mutating func goneWithPendingSave(_ id: RecordID, writes: [WriteID], detail: String, _ context: inout EngineContext) {
        let existence = item(id)
        guard labels.goneInCloud.insert(existence).inserted, !writes.isEmpty else { return }
        let name = identity.recordsApp ?? "records app"
        context.observe(.conflictDetected(item: existence, writes: writes.sortedUnique(), detail: detail))
        context.observe(.conflictShown(item: existence, writes: writes.sortedUnique(), detail: "re-upload as a new record", resolvedBy: ConflictResolver(name)))
        context.emit(.notify(AppNotification(store: .records, reason: "conflict", items: [id.itemName])))
    }

    /// This device's own writes the app shows on record `id` that no record from the cloud
    /// carried yet: its unsent edits.
    func unsentEdits(_ id: RecordID) -> [WriteID] {
        guard viewRead, let record = labels.records[RecordLabels.RecordKey(item(id))] else { return [] }
        return record.items.compactMap { $0.field.isEmpty || $0.entry.view == nil ? nil : labels.unconfirmed[item(id, field: $0.field)] }
    }

    /// Remembers that record `id` is gone by `write` (its existence and every field shown).
    mutating func rememberGone(_ id: RecordID, write: WriteID, _ context: inout EngineContext) {
        let existence = item(id)
        labels.remember(existence, .absent, write, at: context.now)
        // The record's fields the app shows, from its labels (no scan of every item).
        let shownFields = labels.records[RecordLabels.RecordKey(existence)]?.items.compactMap { $0.field.isEmpty || $0.entry.view == nil ? nil : $0.field } ?? []
        for name in shownFields { labels.remember(item(of: existence, field: name), .absent, write, at: context.now) }
    }

    /// Signing in, out, or switching: the engine's state starts afresh, the app is told.
    mutating func changeAccount(to newAccount: AccountID?, _ change: HostedAccountChange, _ app: inout any SyncEngineAppHosting, _ context: inout EngineContext) {
        context.log("accountChange", [("change", "\(change)")])
        heldAfterDelete = [:]
        heldForFetch = [:]
        fieldConflicts = []
        let old = account ?? lastAccount
        // CKSyncEngine forgets its pending changes: what they carried never reaches the cloud
        // (and the edits of conflicts the app has not answered go with its data).
        if account != nil {
            let reason = newAccount == nil ? "discarded at sign-out" : "discarded at account switch"
            for (write, pendingItem) in pendingWrites() { context.observe(.discarded(write: write, item: pendingItem, reason: reason)) }
        }
        conflictsUnanswered = []
        if account != nil && !labels.absentShown.isEmpty {
            // Leaving an account: what the app showed absent by a write (another device's delete
            // or removal, fetched) is absent by no write from now on, as the built-in engine
            // reports what it removed by a write at sign-out and at a switch (records seed
            // 39074). Kept, a record saved signed out was built on that write and on everything
            // it had seen, and a later delete "saw" those versions (records seed 3370: a zone
            // deleted signed out read as having removed the other account's record).
            for key in labels.absentShown.keys.sorted() where key.account == old {
                context.observe(.visible(item: key, value: .absent, write: nil, cause: .reset))
            }
            labels.absentShown = [:]
        }
        if let newAccount, newAccount != old {
            // Items are labelled by account: what the app shows moves to the new one.
            for entry in localView() { context.observe(.visible(item: entry.item, value: .absent, write: nil, cause: .reset)) }
            if viewJournal != nil { for key in labels.viewKeys { setView(key, nil) } }
            // Only the values the app shows now move (what it saved signed out, as the built-in
            // engine relabels its local records): the rest of the old account's memory stays
            // behind, or a write made there (a delete seen in that account) would label a value
            // of the new one (records seeds 286, 357: isolation violations).
            var moved: [RecordLabels.RecordKey: RecordLabels.RecordEntry] = [:]
            for (key, labeled) in labels.viewEntries {
                var renamed = RecordLabels.RecordKey(key)
                renamed.account = newAccount
                moved[renamed, default: RecordLabels.RecordEntry()].items.append((key.field, RecordLabels.Entry(shown: [labeled])))
            }
            // Signing in: a field the user removed from a record saved signed out moves with it,
            // as the built-in engine carries removals like values (fix38). Left behind, the
            // removal stayed in the old account, lost to another device's value there, and the
            // record's save into the new one carried a removal of no write the user made
            // (records seed 5).
            var carried: [ItemKey: WriteID] = [:]
            if account == nil && !labels.absentShown.isEmpty {
                for (key, write) in labels.absentShown.sorted(by: { $0.key < $1.key }) where key.account == old && !key.field.isEmpty {
                    var existence = key
                    existence.field = ""
                    guard labels.view(existence) != nil, let labeled = labels.known(key, .absent), labeled.write == write else { continue }
                    var renamed = key
                    renamed.account = newAccount
                    context.observe(.visible(item: key, value: .absent, write: nil, cause: .reset))
                    context.observe(.visible(item: renamed, value: .absent, write: write, cause: .reset))
                    moved[RecordLabels.RecordKey(renamed), default: RecordLabels.RecordEntry()].items.append((key.field, RecordLabels.Entry(shown: [labeled])))
                    carried[renamed] = write
                }
            }
            labels.records = moved
            labels.absentShown = carried
            labels.touched = []
            viewRead = false
        } else if newAccount == nil {
            // Signing out: the app's next edits are built on what it shows from now on (the
            // built-in apps drop everything), not on what the cloud showed it before: an edit
            // made signed out had not seen the record's earlier versions, and one fetched after
            // the sign-in meets it as a conflict (records seed 1749).
            for index in labels.records.indices {
                for position in labels.records.values[index].items.indices { labels.records.values[index].items[position].entry.forgetShown() }
            }
        }
        // Zone deletions queued for the old account are its: they go with its data.
        labels.settingsDeletes = []
        labels.zoneDeletes = [:]
        if account == nil, let newAccount {
            // Signing in: what the app shows that no record from the cloud carried (its edits
            // made signed out, which go up now) stays unconfirmed, in the account it moved to, so a
            // fetched version meets those edits as unsent ones (records seed 1749: the app's
            // keep of its later edit was not reported as last-writer-wins).
            var moved: [ItemKey: WriteID] = [:]
            for (key, write) in labels.unconfirmed {
                var renamed = key
                renamed.account = newAccount
                moved[renamed] = write
            }
            labels.unconfirmed = moved
        } else {
            // Leaving an account: its unsent edits were discarded above.
            labels.unconfirmed = [:]
        }
        account = newAccount
        if let newAccount { lastAccount = newAccount }
        accountEpoch += 1
        sending = false
        subscribing = false
        fetching = false
        state = SyncEngineStateData(account: newAccount)
        stateDirty = true
        tell(.accountChange(change), &app, &context)
        if newAccount != nil {
            wantFetch = true
            pump(&app, &context)
        }
    }
}
