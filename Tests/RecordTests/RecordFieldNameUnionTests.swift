import Testing
@testable import SyncLabEngines

/// `RecordEngine.sortedUnion` walks the fields of a local and a fetched record when the fetch is
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
}
