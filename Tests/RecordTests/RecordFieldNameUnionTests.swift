import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `RecordEngine.fieldNames(of:and:)` and `sortedUnion` list the fields of a local and a fetched record when the fetch is
/// applied; its shortcut (both records name the same fields) must answer exactly as the set of
/// both lists sorted by UTF-8 bytes, which it replaced on the fetch path.
@Suite("Record field name union")
struct RecordFieldNameUnionTests {
    static func reference(_ first: [String], _ second: [String]) -> [String] {
        var names = Set(first)
        names.formUnion(second)
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func sorted(_ names: [String]) -> [String] { names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    @Test("equals the sorted set of both lists, canonically equal names kept once as the first list spells them")
    func matchesTheSetOfBoth() {
        let cases: [([String], [String])] = [
            ([], []), (["value"], ["value"]), (["a", "b"], ["b", "c"]), ([], ["x"]), (["x"], []),
            (["é"], ["e\u{301}"]), (["e\u{301}", "z"], ["é", "a"]), (["Ω", "a", "😀"], ["a", "😀", "b"]),
        ]
        for (first, second) in cases {
            let union = RecordEngine.sortedUnion(Self.sorted(first), Self.sorted(second))
            #expect(union == Self.reference(Self.sorted(first), Self.sorted(second)), "\(first) ∪ \(second)")
            // Canonically equal names compare equal as Strings: check the spelling kept too.
            #expect(union.map { Array($0.utf8) } == Self.reference(Self.sorted(first), Self.sorted(second)).map { Array($0.utf8) })
        }
    }

    static func fields(_ names: [String]) -> [String: StoredField] {
        let write = WriteID(device: DeviceID(0), sequence: 1)
        return Dictionary(names.map { ($0, StoredField(value: .int(1), write: write, modifiedAt: LocalInstant(microseconds: 0))) }) { first, _ in first }
    }

    @Test("the names of a local and a fetched record are the sorted set of both, the local spelling kept")
    func recordNamesMatchTheSetOfBoth() {
        let write = WriteID(device: DeviceID(0), sequence: 1)
        let cases: [([String], [String])] = [
            ([], []), (["value"], ["value"]), (["a", "b"], ["b", "a"]), (["a", "b"], ["b", "c"]), ([], ["x"]), (["x"], []),
            (["é"], ["e\u{301}"]), (["e\u{301}", "z"], ["é", "z"]), (["a"], ["a", "b"]),
        ]
        for (localNames, serverNames) in cases {
            let local = LocalRecord(type: "T", fields: Self.fields(localNames), existenceWrite: write)
            let server = ServerRecord(id: RecordID(zone: "Z", name: "r"), type: "T", fields: Self.fields(serverNames), changeTag: 1, existenceWrite: write,
                                      createdAt: LocalInstant(microseconds: 0), modifiedAt: LocalInstant(microseconds: 0), creatorDevice: DeviceID(0),
                                      creatorAccount: AccountID(0), lastModifierDevice: DeviceID(0))
            let names = RecordEngine.fieldNames(of: local, and: server)
            let expected = Self.reference(local.fieldNames, server.fieldNames)
            #expect(names.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(localNames) ∪ \(serverNames)")
        }
    }
}
