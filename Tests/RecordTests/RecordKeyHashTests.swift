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

    // `RecordID` carries its names' hash and `RecordKey(database:id:)` builds its hash from it
    // (issue 13, session 10): every way of making a key must agree with equality.
    static let spellings = ["", "Z", "K", "\u{212A}", "é", "e\u{301}", "r42", "a longer zone name than fifteen bytes", "日本語"]

    @Test("a key from an id equals and hashes as the key from the id's names, for every spelling")
    func keyFromIDMatchesKeyFromNames() {
        for database in DatabaseScope.allCases {
            for zone in Self.spellings {
                for name in Self.spellings {
                    let fromNames = RecordKey(database: database, zone: zone, name: name)
                    let fromID = RecordKey(database: database, id: RecordID(zone: zone, name: name))
                    #expect(fromNames == fromID)
                    #expect(fromNames.cachedHash == fromID.cachedHash)
                    #expect(fromNames.hashValue == fromID.hashValue)
                }
            }
        }
    }

    @Test("canonically equal spellings make equal ids and keys with equal hashes; a changed name rehashes")
    func canonicalEquivalence() {
        let kelvin = RecordID(zone: "Z", name: "\u{212A}"), letter = RecordID(zone: "Z", name: "K")
        #expect(kelvin == letter && kelvin.namesHash == letter.namesHash && kelvin.hashValue == letter.hashValue)
        let composed = RecordKey(database: .private, id: RecordID(zone: "é", name: "r"))
        let decomposed = RecordKey(database: .private, zone: "e\u{301}", name: "r")
        #expect(composed == decomposed && composed.cachedHash == decomposed.cachedHash)
        var renamed = RecordID(zone: "Z", name: "a")
        renamed.name = "K"
        #expect(renamed == letter && renamed.namesHash == letter.namesHash)
        #expect(RecordKey(database: .private, id: letter) != RecordKey(database: .public, id: letter))
        var table = RecordTable()
        table[server: RecordKey(database: .private, id: kelvin)] = nil
        table[local: RecordKey(database: .private, id: kelvin)] = LocalRecord(type: "T", fields: [:], existenceWrite: WriteID(device: DeviceID(0), sequence: 1))
        #expect(table[local: RecordKey(database: .private, zone: "Z", name: "K")] != nil)
    }
}
