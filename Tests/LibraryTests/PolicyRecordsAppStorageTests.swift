import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// The built-in records apps keep a fetched record once: every device fetches every record, and a
/// second copy kept as the ancestor of conflicts that mostly never come cost a dictionary entry
/// per record per device. The ancestor is kept from the user's first change of the record.
@Suite("A built-in records app keeps a fetched record once")
struct PolicyRecordsAppStorageTests {
    let milk = SyncRecord.ID(recordName: "milk", zoneName: "Todos")

    /// The cloud's version `tag` of `milk` with `fields`.
    func server(_ tag: UInt64, _ fields: [String: ScenarioValue]) -> SyncRecord {
        var record = SyncRecord(recordType: "Todo", recordID: milk)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { record[name] = value }
        record.changeTag = tag
        return record
    }

    func fetched(_ app: inout MergeRecordsApp, _ data: inout SyncEngineStateData, _ record: SyncRecord) {
        var engine = SyncEngine.lending(&data, now: LocalInstant(microseconds: 0))
        app.handleEvent(.fetchedRecordZoneChanges(SyncEngine.FetchedRecordZoneChanges(modifications: [record], deletions: [])), syncEngine: &engine)
        engine.giveBack(&data)
    }

    @Test("a fetched record the user never changed is kept only as shown; an edit keeps its ancestor, which a later fetch merges against")
    func fetchedRecordKeptOnce() {
        var app = MergeRecordsApp(disk: nil)
        var data = SyncEngineStateData(account: AccountID(index: 0))
        fetched(&app, &data, server(1, ["title": "Milk", "done": 0]))
        fetched(&app, &data, server(2, ["title": "Milk", "done": 0, "note": "2l"]))
        #expect(app.userSees[milk] == server(2, ["title": "Milk", "done": 0, "note": "2l"]))
        #expect(app.lastServer.isEmpty, "the shown record is the cloud's version: not stored twice")

        var engine = SyncEngine.lending(&data, now: LocalInstant(microseconds: 10))
        app.userDid(.saveRecord(RecordEdit(recordID: milk, recordType: "Todo", edits: [.init(name: "done", value: 1)])), syncEngine: &engine)
        engine.giveBack(&data)
        #expect(app.lastServer[milk] == server(2, ["title": "Milk", "done": 0, "note": "2l"]), "the ancestor of the edit")

        // Another device renamed it: merged against the ancestor, the edit stays on top.
        fetched(&app, &data, server(3, ["title": "Oat milk", "done": 0, "note": "2l"]))
        #expect(app.userSees[milk]?["title"] == "Oat milk")
        #expect(app.userSees[milk]?["done"] == 1)
        #expect(app.unsent[milk] == ["done"])
    }
}
