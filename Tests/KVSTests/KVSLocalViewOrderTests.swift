import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// `localView` sorts keys by their UTF-8 bytes through a contiguous-byte comparison; it must
/// order exactly as `ItemKey` does (UTF-8 `lexicographicallyPrecedes` of the name).
@Suite("KVS local view order")
struct KVSLocalViewOrderTests {
    typealias T = KVSTest
    static let keys = ["", "a", "A", "ab", "a b", "a\u{0}", "é", "e\u{301}", "z", "Ω", "😀", "😀a", "key-10", "key-9", "key-100",
                       "a-long-key-that-is-not-a-small-string-1", "a-long-key-that-is-not-a-small-string-2", "ÿ", "\u{7F}", "\u{80}"]

    @Test("the byte comparison agrees with UTF-8 lexicographic order on every pair")
    func byteComparisonAgrees() {
        for lhs in Self.keys {
            for rhs in Self.keys {
                #expect(UTF8Order.precedes(lhs, rhs) == lhs.utf8.lexicographicallyPrecedes(rhs.utf8), "\(lhs) vs \(rhs)")
            }
        }
    }

    @Test("the local view lists keys with a value in item order, removed keys left out")
    func viewInItemOrder() {
        var engine = T.launchedEngine()
        var context = T.context(at: 1)
        var sequence: UInt32 = 0
        // "é" and "e\u{301}" are one key to a Swift dictionary (canonically equal): write one.
        for key in Self.keys.reversed() where key != "e\u{301}" && !key.isEmpty {
            sequence += 1
            _ = engine.set([(key: key, value: .integer(Int64(sequence)))], write: T.write(0, sequence), &context)
        }
        sequence += 1
        _ = engine.set([(key: "z", value: nil)], write: T.write(0, sequence), &context)
        let items = engine.localView().map(\.item)
        let expected = Self.keys.filter { $0 != "e\u{301}" && !$0.isEmpty && $0 != "z" }.map { T.item($0) }.sorted()
        #expect(items == expected)
    }
}
