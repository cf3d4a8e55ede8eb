import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `RecordTable` keeps a record's local copy and server version in one slot: each part must
/// behave as its own dictionary did, and a slot with neither part must go.
@Suite("Record table")
struct RecordTableTests {
    static let write = WriteID(device: DeviceID(0), sequence: 1)
    static let at = LocalInstant(microseconds: 0)
    static let local = LocalRecord(type: "T", fields: [:], existenceWrite: write)
    static let server = ServerRecord(id: RecordID(zone: "Z", name: "r"), type: "T", fields: [:], changeTag: 7, existenceWrite: write,
                                     createdAt: at, modifiedAt: at, creatorDevice: DeviceID(0), creatorAccount: AccountID(0), lastModifierDevice: DeviceID(0))

    @Test("the two parts are set and cleared apart; a slot with neither goes")
    func partsAreIndependent() {
        let key = RecordKey(database: .private, zone: "Z", name: "r")
        var table = RecordTable()
        table[server: key] = Self.server
        #expect(table[local: key] == nil)
        #expect(table[server: key]?.changeTag == 7)
        table[local: key] = Self.local
        table[server: key] = nil
        #expect(table[local: key] == Self.local)
        #expect(table.serverKeys.isEmpty && table.localKeys == [key])
        #expect(table.removeLocal(forKey: key) == Self.local)
        #expect(table.slots.isEmpty)
        table[local: key] = nil
        #expect(table.slots.isEmpty)
    }

    @Test("changing a part in place, and the dictionary views, read and write what the parts hold")
    func viewsMatchTheParts() {
        let first = RecordKey(database: .private, zone: "Z", name: "a")
        let second = RecordKey(database: .public, zone: "Z", name: "b")
        var table = RecordTable()
        table[local: first] = Self.local
        table[local: first]?.type = "U"
        table[server: second] = Self.server
        #expect(table.localRecords == [first: LocalRecord(type: "U", fields: [:], existenceWrite: Self.write)])
        #expect(table.serverRecords == [second: Self.server])
        table.serverRecords = [first: Self.server]
        #expect(table.serverKeys == [first])
        #expect(table[server: second] == nil)
        #expect(table.slots.count == 1)
        table.localRecords = [:]
        table.serverRecords = [:]
        #expect(table.slots.isEmpty)
    }
}
