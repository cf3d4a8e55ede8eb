import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `RecordEngine.differingFieldNames` is what `applyServer` shows when every field takes the
/// server's (it then takes the server's field dictionary whole): it must name exactly the fields
/// the field-by-field path shows, in the same order and spelling, or decline (nil) when that
/// path would keep a local spelling.
@Suite("Record differing fields")
struct RecordDifferingFieldsTests {
    static let at = LocalInstant(microseconds: 0)

    static func stored(_ value: FieldValue?, _ sequence: UInt32) -> StoredField {
        StoredField(value: value, write: WriteID(device: DeviceID(0), sequence: sequence), modifiedAt: at)
    }

    static func server(_ fields: [String: StoredField]) -> ServerRecord {
        ServerRecord(id: RecordID(zone: "Z", name: "r"), type: "T", fields: fields, changeTag: 1, existenceWrite: WriteID(device: DeviceID(0), sequence: 1),
                     createdAt: at, modifiedAt: at, creatorDevice: DeviceID(0), creatorAccount: AccountID(0), lastModifierDevice: DeviceID(0))
    }

    /// The names the field-by-field path shows.
    static func reference(_ local: LocalRecord, _ server: ServerRecord) -> [String] {
        RecordEngine.fieldNames(of: local, and: server).filter { !RecordEngine.sameShown(local.fields[$0], server.fields[$0]) }
    }

    @Test("names exactly the fields the field-by-field path shows, in UTF-8 order")
    func matchesTheFieldByFieldPath() {
        let cases: [([String: StoredField], [String: StoredField])] = [
            ([:], [:]),
            (["a": Self.stored(.int(1), 2)], ["a": Self.stored(.int(1), 2)]),
            (["a": Self.stored(.int(1), 2)], ["a": Self.stored(.int(2), 3)]),
            (["a": Self.stored(.int(1), 2)], ["a": Self.stored(.int(1), 3)]),
            (["a": Self.stored(.int(1), 2), "b": Self.stored(.int(1), 2)], ["b": Self.stored(.int(5), 4), "c": Self.stored(.int(1), 2), "a": Self.stored(.int(9), 4)]),
            (["a": Self.stored(nil, 2)], [:]),
            (["a": Self.stored(.int(1), 2)], [:]),
            ([:], ["a": Self.stored(nil, 2)]),
            (["a": Self.stored(nil, 2)], ["a": Self.stored(nil, 3)]),
            (["z": Self.stored(.int(1), 2), "é": Self.stored(.int(1), 2), "a": Self.stored(.int(1), 2)], ["é": Self.stored(.int(2), 3), "z": Self.stored(.int(3), 3), "a": Self.stored(.int(1), 2)]),
            // More fields than `fieldsScanned`: found by lookup, not by comparing names.
            (Self.fields(6, value: 1), Self.fields(6, value: 1)),
            (Self.fields(6, value: 1), Self.fields(6, value: 1).merging(["f3": Self.stored(.int(7), 9)]) { $1 }),
            (Self.fields(6, value: 1), Self.fields(5, value: 2)),
        ]
        for (localFields, serverFields) in cases {
            let local = LocalRecord(type: "T", fields: localFields, existenceWrite: WriteID(device: DeviceID(0), sequence: 1))
            let server = Self.server(serverFields)
            let names = RecordEngine.differingFieldNames(local, server)
            #expect(names?.map { Array($0.utf8) } == Self.reference(local, server).map { Array($0.utf8) }, "\(localFields.keys.sorted()) → \(serverFields.keys.sorted())")
            // Unlisted (a host keeping no observations): the same answer, and no names made.
            var unlisted: [String] = []
            #expect(RecordEngine.fieldsDiffer(local, server, listing: false, into: &unlisted) == names.map { !$0.isEmpty })
            #expect(unlisted.isEmpty)
        }
    }

    /// Fields `f0`…`f(count-1)`, each with this value.
    static func fields(_ count: Int, value: Int64) -> [String: StoredField] {
        var fields: [String: StoredField] = [:]
        for index in 0..<count { fields["f\(index)"] = Self.stored(.int(value), 2) }
        return fields
    }

    @Test("finds a field spelled another way (canonically equal) whether it compares names or looks them up")
    func findsCanonicallyEqualNames() {
        for count in [1, RecordEngine.fieldsScanned, RecordEngine.fieldsScanned + 2] {
            var fields = Self.fields(count - 1, value: 1)
            fields["é"] = Self.stored(.int(1), 2)
            let place = RecordEngine.fieldPlace(fields, "e\u{301}")
            #expect(place.map { Array(fields.keys[$0].utf8) } == Array("é".utf8), "\(count) fields")
            #expect(RecordEngine.fieldPlace(fields, "absent") == nil)
        }
        #expect(RecordEngine.sameBytes("é", "é"))
        #expect(!RecordEngine.sameBytes("é", "e\u{301}"))
        #expect(!RecordEngine.sameBytes("a", "ab"))
    }

    @Test("declines when a field both records have is spelled differently in each")
    func declinesOnOtherSpelling() {
        let local = LocalRecord(type: "T", fields: ["é": Self.stored(.int(1), 2)], existenceWrite: WriteID(device: DeviceID(0), sequence: 1))
        #expect(RecordEngine.differingFieldNames(local, Self.server(["e\u{301}": Self.stored(.int(2), 3)])) == nil)
        #expect(RecordEngine.differingFieldNames(local, Self.server(["é": Self.stored(.int(2), 3)])) == ["é"])
    }
}
