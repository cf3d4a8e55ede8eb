import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `ServerRecord` keeps its parts in one copy-on-write box: a copy (a device storing the version
/// a fetch brought) is a reference, and a change to a copy never shows in another.
@Suite("Server record storage")
struct ServerRecordStorageTests {
    static let at = LocalInstant(microseconds: 0)
    static let write = WriteID(device: DeviceID(0), sequence: 1)

    static func record(_ fields: [String: StoredField] = [:]) -> ServerRecord {
        ServerRecord(id: RecordID(zone: "Z", name: "r"), type: "T", fields: fields, changeTag: 7, existenceWrite: write,
                     createdAt: at, modifiedAt: at, creatorDevice: DeviceID(0), creatorAccount: AccountID(0), lastModifierDevice: DeviceID(0))
    }

    static func field(_ value: FieldValue?) -> StoredField { StoredField(value: value, write: write, modifiedAt: at) }

    @Test("a copy shares the parts until one of them changes")
    func copiesShareUntilChanged() {
        let original = Self.record(["a": Self.field(.int(1))])
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.changeTag = 8
        #expect(!copy.sharesStorage(with: original))
        #expect(original.changeTag == 7 && copy.changeTag == 8)
        var other = original
        other.fields["a"] = Self.field(.int(2))
        other.id.name = "s"
        #expect(original.fields["a"]?.value == .int(1) && original.id.name == "r")
        #expect(other.fields["a"]?.value == .int(2) && other.id == RecordID(zone: "Z", name: "s"))
    }

    @Test("equality and hashing are the parts', boxed apart or together")
    func equalityIsByParts() {
        let one = Self.record(["a": Self.field(.string("x"))]), two = Self.record(["a": Self.field(.string("x"))])
        #expect(!one.sharesStorage(with: two))
        #expect(one == two && one.hashValue == two.hashValue)
        var changed = two
        changed.zoneIncarnation = 3
        #expect(changed != one)
        #expect(Set([one, two, changed]).count == 2)
    }

    @Test("asset bytes follow the fields however they change")
    func assetBytesFollowFields() {
        var record = Self.record()
        #expect(record.assetBytes == 0)
        record.fields["photo"] = Self.field(.asset(sizeBytes: 300))
        #expect(record.assetBytes == 300)
        let shared = record
        record.fields = ["photo": Self.field(.asset(sizeBytes: 20)), "more": Self.field(.asset(sizeBytes: 5))]
        #expect(record.assetBytes == 25 && shared.assetBytes == 300)
        record.fields["photo"] = nil
        #expect(record.assetBytes == 5)
    }

    @Test("a device's table entry is a key, a local copy and a reference: two cache lines, not four")
    func tableEntryIsSmall() {
        #expect(MemoryLayout<ServerRecord>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<RecordTable.Entry>.stride <= 128)
    }
}
