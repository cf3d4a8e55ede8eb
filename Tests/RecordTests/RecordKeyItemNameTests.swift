import Testing
import SyncLabProtocol
@testable import SyncLabEngines

/// `RecordKey.itemName` writes the zone's and the name's bytes with a slash between: the same
/// bytes as `"\(zone)/\(name)"` for every spelling (it names items in results and reports).
@Suite("Record key item name")
struct RecordKeyItemNameTests {
    @Test("spells ZONE/NAME byte for byte as interpolation does")
    func spellsLikeInterpolation() {
        let spellings = ["", "Z", "Bench", "r42", "é", "e\u{301}", "\u{212A}", "a/b", "a longer zone name than fifteen bytes", "日本語のゾーン"]
        for zone in spellings {
            for name in spellings {
                let key = RecordKey(database: .private, zone: zone, name: name)
                #expect(Array(key.itemName.utf8) == Array("\(zone)/\(name)".utf8), "\(zone) / \(name)")
            }
        }
    }
}
