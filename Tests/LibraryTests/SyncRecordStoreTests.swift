import Testing
import SyncLab
@testable import SyncLabApps

@Suite("SyncRecordStore: what a records app shows, read in O(changed records)")
struct SyncRecordStoreTests {
    static func record(_ name: String, title: String) -> SyncRecord {
        var record = SyncRecord(recordType: "Todo", recordID: SyncRecord.ID(recordName: name, zoneName: "Todos"))
        record["title"] = .string(title)
        return record
    }

    static func store(_ count: Int) -> SyncRecordStore {
        var store = SyncRecordStore()
        for index in 0..<count {
            let record = record("r\(index)", title: "t\(index)")
            store[record.recordID] = record
        }
        return store
    }

    @Test("a dictionary of records: set, replace, remove, remove where, compare by contents")
    func dictionary() {
        var store: SyncRecordStore = [:]
        let milk = Self.record("milk", title: "Milk"), eggs = Self.record("eggs", title: "Eggs")
        store[milk.recordID] = milk
        store[eggs.recordID] = eggs
        #expect(store.count == 2 && store[milk.recordID] == milk)
        store.removeAll { $0.recordID.recordName == "eggs" }
        #expect(store.count == 1 && store[eggs.recordID] == nil)
        #expect(store.removeValue(forKey: milk.recordID) == milk)
        #expect(store.isEmpty)
        #expect(SyncRecordStore([milk.recordID: milk]) == [milk.recordID: milk])
    }

    @Test("removeAll(where:) asks about the records in id order, whatever the dictionary's hashing order")
    func removeAllInIDOrder() {
        var store = SyncRecordStore()
        let ids = (0..<40).map { SyncRecord.ID(recordName: "r\($0)", zoneName: $0 % 2 == 0 ? "A" : "B") }
        for id in ids { store[id] = SyncRecord(recordType: "T", recordID: id) }
        var asked: [SyncRecord.ID] = []
        store.removeAll { record in asked.append(record.recordID); return record.recordID.zoneName == "A" }
        #expect(asked == ids.sorted())
        #expect(store.count == 20 && store.keys.allSatisfy { $0.zoneName == "B" })
    }

    @Test("after a reading, the next one lists only the records changed since, each once")
    func changesSinceReading() {
        var store = Self.store(1_000)
        var cursor: SyncRecordStore.Cursor?
        #expect(store.changes(since: &cursor) == nil, "the first reading reads the whole store")
        #expect(store.changes(since: &cursor) == [])
        let changed = Self.record("r7", title: "seven")
        store[changed.recordID] = changed
        store[changed.recordID] = changed
        store.removeValue(forKey: SyncRecord.ID(recordName: "r8", zoneName: "Todos"))
        let ids = store.changes(since: &cursor)
        #expect(ids == [changed.recordID, SyncRecord.ID(recordName: "r8", zoneName: "Todos")])
        #expect(store.changes(since: &cursor) == [])
    }

    @Test("the changes are told one by one without a list: each id once, in the order first logged, few or many")
    func forEachChangeOnce() {
        var store = Self.store(100)
        var cursor: SyncRecordStore.Cursor?
        #expect(!store.forEachChange(since: &cursor) { _ in Issue.record("a first reading tells no change") })
        for count in [3, 40] {
            // Each id changed twice, interleaved, and the first one removed at the end.
            let names = (0..<count).map { "r\(($0 * 7) % 100)" }
            for name in names + names { store[SyncRecord.ID(recordName: name, zoneName: "Todos")] = Self.record(name, title: "x\(count)") }
            store.removeValue(forKey: SyncRecord.ID(recordName: names[0], zoneName: "Todos"))
            var told: [String] = []
            #expect(store.forEachChange(since: &cursor) { told.append($0.recordName) })
            #expect(told == names, "\(count) changed")
            #expect(store.forEachChange(since: &cursor) { _ in Issue.record("nothing changed since") })
        }
    }

    @Test("a store the reader did not read last (replaced, or a copy changed while shared) is read whole")
    func otherStorage() {
        var store = Self.store(10)
        var cursor: SyncRecordStore.Cursor?
        _ = store.changes(since: &cursor)
        store = Self.store(10)
        #expect(store.changes(since: &cursor) == nil)
        let held = store
        store[SyncRecord.ID(recordName: "r1", zoneName: "Todos")] = Self.record("r1", title: "one")
        #expect(store.changes(since: &cursor) == nil, "changed while a copy was held: copied, so read whole")
        #expect(held != store)
    }

    @Test("the log stays bounded; a reader left behind by more changes than the store holds reads it whole")
    func boundedLog() {
        var store = Self.store(100)
        var cursor: SyncRecordStore.Cursor?
        _ = store.changes(since: &cursor)
        for round in 0..<3 {
            for index in 0..<100 { store[SyncRecord.ID(recordName: "r\(index)", zoneName: "Todos")] = Self.record("r\(index)", title: "\(round)") }
        }
        #expect(store.storage.log.count <= 200)
        #expect(store.changes(since: &cursor) == nil)
        store[SyncRecord.ID(recordName: "r1", zoneName: "Todos")] = nil
        #expect(store.changes(since: &cursor) == [SyncRecord.ID(recordName: "r1", zoneName: "Todos")])
    }

    @Test("the hosting adapter hands the platform only the records a call changed")
    func adapterReadsChangedRecords() {
        var hosted = HostedRecordsApp<BigListApp>(disk: nil)
        let first = hosted.viewChanges(full: true)
        #expect(first?.complete == true && first?.changed.count == 1_000)
        #expect(hosted.viewChanges(full: false) == nil, "nothing changed: nothing to read")
        hosted.app.records[SyncRecord.ID(recordName: "r3", zoneName: "Todos")] = Self.record("r3", title: "three")
        hosted.app.records[SyncRecord.ID(recordName: "r4", zoneName: "Todos")] = nil
        let next = hosted.viewChanges(full: false)
        #expect(next?.complete == false)
        #expect(next?.changed.count == 1 && next?.removed.count == 1)
    }
}

extension SyncRecordStoreTests {
    @Test("the platform reads a record without the fields no record can hold, and with the others")
    func viewLeavesOutRefusedFields() {
        var record = Self.record("r1", title: "one")
        #expect(HostedRecordsApp<BigListApp>.viewRecord(record).fields.keys.sorted() == ["title"])
        record["settings"] = ["theme": "dark"]
        #expect(HostedRecordsApp<BigListApp>.viewRecord(record).fields.keys.sorted() == ["title"])
    }

    @Test("between calls nothing holds a records app's store: its changes happen in place, never copying it")
    func storeNotCopiedBetweenCalls() throws {
        var apps = AppRegistry.builtIn
        try apps.register(records: "StorageWatch", StorageWatchApp.self)
        let world = try World(devices: ["iPhone"], apps: ["records": "StorageWatch"], registry: apps)
        for index in 0..<5 {
            try world.device("iPhone").recordSave(zone: "_defaultZone", type: "Todo", name: "r\(index)", fields: ["title": .string("t\(index)")])
            world.runUntilQuiescent()
        }
        // One storage through five changes in five calls: the platform kept no copy of the
        // store (or of the app's disk) between them.
        #expect(world.device("iPhone").view.records["_defaultZone/storages"]?["count"] == 1, "\(world.device("iPhone").view)")
    }
}

/// Counts the storages its store has had after its changes (shown as record `storages`).
struct StorageWatchApp: RecordsApp {
    var records = SyncRecordStore()
    var storages: [ObjectIdentifier] = []
    init(disk: SyncRecordStore?) { records = disk ?? SyncRecordStore() }
    var disk: SyncRecordStore { records }
    var stateSerialization: SyncEngine.State.Serialization? { nil }
    mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {
        guard case .saveRecord(let edit) = action else { return }
        records[edit.recordID] = records.applying(edit)
        let storage = ObjectIdentifier(records.storage)
        if !storages.contains(storage) { storages.append(storage) }
        var count = SyncRecord(recordType: "Meta", recordID: SyncRecord.ID(recordName: "storages", zoneName: "_defaultZone"))
        count["count"] = .integer(Int64(storages.count))
        records[count.recordID] = count
    }
    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {}
    func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? { nil }
    var userSees: SyncRecordStore { records }
}

extension SyncRecordStore {
    /// The record `edit` names, with the edit applied (a new record when the store has none).
    func applying(_ edit: RecordEdit) -> SyncRecord {
        var record = self[edit.recordID] ?? SyncRecord(recordType: edit.recordType, recordID: edit.recordID)
        edit.apply(to: &record)
        return record
    }
}

/// Shows 1,000 records from its first launch; does nothing else.
struct BigListApp: RecordsApp {
    var records = SyncRecordStoreTests.store(1_000)
    init(disk: SyncRecordStore?) { if let disk { records = disk } }
    var disk: SyncRecordStore { records }
    var stateSerialization: SyncEngine.State.Serialization? { nil }
    mutating func userDid(_ action: RecordsUserAction, syncEngine: inout SyncEngine) {}
    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine) {}
    func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine) -> SyncEngine.RecordZoneChangeBatch? { nil }
    var userSees: SyncRecordStore { records }
}
