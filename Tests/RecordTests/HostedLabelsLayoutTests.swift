import Testing
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabEngines

/// The hosted records platform's cheaper forms of what it did before (session 10): the view's
/// item sort compares UTF-8 bytes in place, and an item's label entry keeps its latest value
/// apart from the earlier ones. Both must give exactly what the plain forms gave.
@Suite("Hosted labels layout")
struct HostedLabelsLayoutTests {
    /// Keys with shared prefixes, non-ASCII names, canonically equal names (equal Strings,
    /// different bytes), other accounts and stores.
    static let keys: [ItemKey] = {
        let names = ["Z/a", "Z/ab", "Z/b", "Z/é", "Z/e\u{301}", "Z/\u{1F600}", "Y/z", "Z/", "Z/A"]
        let fields = ["", "title", "titles", "é", "e\u{301}", "Title"]
        var keys: [ItemKey] = []
        for account in [AccountID(0), AccountID(1)] {
            for store in [Store.records, Store.kvs] {
                for name in names { for field in fields { keys.append(ItemKey(account: account, store: store, name: name, field: field)) } }
            }
        }
        return keys
    }()

    @Test("the view's item order is ItemKey's, pair by pair, and a sorted list is seen as in order")
    func itemOrder() {
        for lhs in Self.keys {
            for rhs in Self.keys { #expect(SyncEnginePlatform.precedes(lhs, rhs) == (lhs < rhs), "\(lhs) < \(rhs)") }
        }
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let count = Int(random.next() % 8) + 1
            let keys = (0..<count).map { _ in (key: Self.keys[Int(random.next() % UInt64(Self.keys.count))], value: ItemValue.absent, tagless: false, sameVersion: false, whole: Int?.none) }
            let sorted = keys.sorted { $0.key < $1.key }
            #expect(SyncEnginePlatform.inItemOrder(sorted))
            let inOrder = zip(keys, keys.dropFirst()).allSatisfy { !($1.key < $0.key) }
            #expect(SyncEnginePlatform.inItemOrder(keys) == inOrder)
        }
    }

    @Test("an entry's values shown are what the plain list kept: once each, most recent last, at most memory")
    func entryMatchesList() {
        var random = SeededRandom(seed: 11)
        var entry = RecordLabels.Entry()
        var list: [RecordLabels.Labeled] = []
        for step in 0..<5_000 {
            // Few values and writes, so values are shown again often, at every position.
            let labeled = RecordLabels.Labeled(value: .field(.int(Int64(random.next() % 5))),
                                               write: WriteID(device: DeviceID(0), sequence: UInt32(random.next() % 6)),
                                               modifiedAt: LocalInstant(microseconds: Int64(step)), fromCloud: random.next() % 2 == 0)
            entry.add(labeled)
            Self.addToList(labeled, &list)
            #expect(entry.shown == list)
            #expect(entry.latest == list.last)
            if step % 997 == 0 {
                entry.forgetShown()
                list = []
            }
        }
        let kept = RecordLabels.Entry(shown: Array(list.prefix(3)))
        #expect(kept.shown == Array(list.prefix(3)))
    }

    @Test("a label is 40 bytes (its date laid out before its value), an item of a record 104")
    func labelSize() {
        #expect(MemoryLayout<RecordLabels.Labeled>.stride == 40)
        #expect(MemoryLayout<RecordLabels.Labeled?>.stride == 40)
        #expect(MemoryLayout<(field: String, entry: RecordLabels.Entry)>.stride == 104)
    }

    /// The plain list's `add`, as `RecordLabels` kept it before session 10.
    static func addToList(_ labeled: RecordLabels.Labeled, _ list: inout [RecordLabels.Labeled]) {
        var labeled = labeled
        if let index = list.firstIndex(where: { $0.write == labeled.write && $0.value == labeled.value }) {
            labeled.fromCloud = labeled.fromCloud || list[index].fromCloud
            if index == list.count - 1 {
                list[index] = labeled
                return
            }
            list.remove(at: index)
        }
        if list.count >= RecordLabels.memory { list.removeFirst() }
        list.append(labeled)
    }
}
