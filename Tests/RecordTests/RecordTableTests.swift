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
        #expect(table.isEmpty)
        table[local: key] = nil
        #expect(table.isEmpty)
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
        #expect(table.count == 1)
        table.localRecords = [:]
        table.serverRecords = [:]
        #expect(table.isEmpty)
    }

    /// The table is open addressing over a dense array of entries (issue 13, session 10): adding
    /// past the buckets' half, removing from the middle of a probe run (the runs shift back) and
    /// moving the last entry into a hole must keep every key findable, as a dictionary would.
    @Test("many keys added, changed and removed at random read as a dictionary of the same operations")
    func behavesAsADictionary() {
        var random = SplitMix64(seed: 13)
        var table = RecordTable()
        var localModel: [RecordKey: LocalRecord] = [:]
        var serverModel: [RecordKey: ServerRecord] = [:]
        // Few zones and names, so keys come back after their removal and probe runs collide.
        let keys = (0..<300).map { RecordKey(database: $0 % 7 == 0 ? .public : .private, zone: "Z\($0 % 3)", name: "r\($0)") }
        for round in 0..<20_000 {
            let key = keys[Int(random.next() % UInt64(round < 10_000 ? 300 : 40))]
            var server = Self.server
            server.changeTag = random.next() % 1_000
            switch random.next() % 6 {
            case 0, 1: table[local: key] = Self.local; localModel[key] = Self.local
            case 2: table[server: key] = server; serverModel[key] = server
            case 3: table[local: key] = nil; localModel[key] = nil
            case 4: table[server: key] = nil; serverModel[key] = nil
            default: #expect(table.removeLocal(forKey: key) == localModel.removeValue(forKey: key))
            }
        }
        #expect(table.localRecords == localModel)
        #expect(table.serverRecords == serverModel)
        #expect(table.count == Set(localModel.keys).union(serverModel.keys).count)
        for key in keys {
            #expect(table[local: key] == localModel[key])
            #expect(table[server: key] == serverModel[key])
            #expect((table.place(of: key) != nil) == (localModel[key] != nil || serverModel[key] != nil))
            if let place = table.place(of: key) { #expect(table.serverChangeTag(at: place) == serverModel[key]?.changeTag) }
        }
    }

    @Test("the entries keep the order their records were first stored in, whatever their hashes")
    func entriesInInsertionOrder() {
        var table = RecordTable()
        let keys = (0..<50).map { RecordKey(database: .private, zone: "Z", name: "r\($0)") }
        for key in keys { table[server: key] = Self.server }
        #expect(table.entries.map(\.key) == keys)
        table[server: keys[10]] = nil
        #expect(table.entries.map(\.key) == Array(keys[0..<10]) + [keys[49]] + Array(keys[11..<49]))
    }
}
