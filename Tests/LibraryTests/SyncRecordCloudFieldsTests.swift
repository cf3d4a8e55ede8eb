import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// Every device converts every fetched record into a `SyncRecord`: it now holds the cloud's
/// fields as they came (no dictionaries of its own, none to free when the next version replaces
/// it), and reads exactly as the converted record did.
@Suite("A fetched SyncRecord holds the cloud's fields until its first change")
struct SyncRecordCloudFieldsTests {
    static func stored(_ value: FieldValue?, _ sequence: UInt32, at micros: Int64) -> StoredField {
        StoredField(value: value, write: WriteID(device: DeviceID(3), sequence: sequence), modifiedAt: LocalInstant(microseconds: micros))
    }

    static func server(_ fields: [String: StoredField]) -> ServerRecord {
        let at = LocalInstant(microseconds: 0)
        return ServerRecord(id: RecordID(zone: "Todos", name: "milk"), type: "Todo", fields: fields, changeTag: 9, existenceWrite: WriteID(device: DeviceID(3), sequence: 1),
                            createdAt: at, modifiedAt: at, creatorDevice: DeviceID(3), creatorAccount: AccountID(0), lastModifierDevice: DeviceID(3))
    }

    static let fields: [String: StoredField] = [
        "title": stored(.string("Milk"), 2, at: 5_000_000),
        "count": stored(.int(2), 3, at: 6_000_000),
        "due": stored(.date(epochMicroseconds: 1_700_000_000_000_000), 4, at: 7_000_000),
        "tags": stored(.list([.string("a"), .bytes([1, 2, 3])]), 5, at: 8_000_000),
    ]

    @Test("a fetched record shares the cloud's fields and reads as the converted record does")
    func sharedReadsTheSame() {
        let server = Self.server(Self.fields)
        let shared = SyncRecord(server: server)
        let converted = SyncRecord(HostedRecord(server))
        #expect(shared.cloudStoredFields == server.fields)
        #expect(converted.cloudStoredFields == nil)
        #expect(shared.fields == converted.fields)
        #expect(shared.allKeys() == converted.allKeys())
        for name in shared.allKeys() + ["missing"] {
            #expect(shared[name] == converted[name])
            #expect(shared.modificationDate(forKey: name) == converted.modificationDate(forKey: name))
        }
        #expect(shared.recordChangeTag == converted.recordChangeTag)
        #expect(shared == converted && converted == shared)
        #expect(shared.hashValue == converted.hashValue)
        #expect(shared.hosted == converted.hosted)
        // The platform reads it back without a copy, with the same fields.
        let view = HostedRecordsApp<MergeRecordsApp>.viewRecord(shared)
        #expect(view.fields == HostedRecordsApp<MergeRecordsApp>.viewRecord(converted).fields)
        #expect(view.fieldCount == 4 && view[field: "count"] == .int(2) && view[field: "missing"] == nil)
    }

    @Test("the first change converts the fields: the others and their dates stay, the changed one loses its date")
    func firstChangeConverts() {
        var record = SyncRecord(server: Self.server(Self.fields))
        let before = record
        record["count"] = .integer(3)
        #expect(record.cloudStoredFields == nil)
        #expect(record["count"] == .integer(3) && record.modificationDate(forKey: "count") == nil)
        #expect(record["title"] == .string("Milk") && record.modificationDate(forKey: "title") == .microseconds(5_000_000))
        #expect(record != before)
        record["count"] = .integer(2)
        // Same values, but the date of `count` is gone: not the cloud's record any more.
        #expect(record != before && record.fields == before.fields)
        var removed = SyncRecord(server: Self.server(Self.fields))
        removed["title"] = nil
        #expect(removed.hosted.removedFields == ["title"] && removed.hosted.fields["title"] == nil)
    }

    @Test("a fetched record with a removed field is converted, the removal left out")
    func removedFieldConverts() {
        var fields = Self.fields
        fields["gone"] = Self.stored(nil, 6, at: 9_000_000)
        let record = SyncRecord(server: Self.server(fields))
        #expect(record.cloudStoredFields == nil)
        #expect(record["gone"] == nil && record.allKeys() == ["count", "due", "tags", "title"])
        #expect(record.fields == SyncRecord(server: Self.server(Self.fields)).fields)
    }

    @Test("records holding the same cloud fields under other write ids are equal")
    func equalAcrossWrites() {
        let first = SyncRecord(server: Self.server(Self.fields))
        let rewritten = SyncRecord(server: Self.server(Self.fields.mapValues { field in
            var field = field
            field.write = WriteID(device: DeviceID(7), sequence: field.write.sequence)
            return field
        }))
        #expect(first == rewritten && first.hashValue == rewritten.hashValue)
    }
}
