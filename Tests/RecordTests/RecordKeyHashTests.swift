import Testing
import SyncLabProtocol
@testable import SyncLabEngines

/// `RecordKey` carries its hash (computed when made, and again when a part changes): equal keys
/// must still hash alike, and a changed key must be found under its new parts.
@Suite("Record key hash")
struct RecordKeyHashTests {
    @Test("keys made apart from the same parts are equal, hash alike and find each other")
    func equalKeysHashAlike() {
        let first = RecordKey(database: .private, zone: "Z", name: "n1")
        let second = RecordKey(database: .private, zone: String("Z".utf8.map { Character(UnicodeScalar($0)) }), name: "n" + "1")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        let table: [RecordKey: Int] = [first: 1]
        #expect(table[second] == 1)
        // Canonically equal names are equal Strings: the keys are equal and hash alike too.
        let composed = RecordKey(database: .private, zone: "Z", name: "é")
        let decomposed = RecordKey(database: .private, zone: "Z", name: "e\u{301}")
        #expect(composed == decomposed)
        #expect(Set([composed]).contains(decomposed))
    }

    @Test("keys differing in any one part are unequal")
    func partsMatter() {
        let key = RecordKey(database: .private, zone: "Z", name: "n1")
        let others = [RecordKey(database: .public, zone: "Z", name: "n1"), RecordKey(database: .private, zone: "Y", name: "n1"),
                      RecordKey(database: .private, zone: "Z", name: "n2"), RecordKey(database: .private, zone: "Zn", name: "1")]
        for other in others { #expect(key != other, "\(other)") }
        #expect(Set(others + [key]).count == 5)
    }

    @Test("a key whose part is changed is found under its new parts, not its old ones")
    func changedKeyRehashes() {
        var key = RecordKey(database: .private, zone: "Z", name: "n1")
        key.name = "n2"
        key.zone = "Y"
        key.database = .public
        let table: Set<RecordKey> = [key]
        #expect(table.contains(RecordKey(database: .public, zone: "Y", name: "n2")))
        #expect(!table.contains(RecordKey(database: .private, zone: "Z", name: "n1")))
        #expect(key.hashValue == RecordKey(database: .public, zone: "Y", name: "n2").hashValue)
    }
}
