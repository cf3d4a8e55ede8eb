import Testing
@testable import SyncLabApps
import SyncLabEngines
import SyncLabKernel
import SyncLabProtocol

/// `KeyValueStore.object(forKey:)` converts the scalars where they lie (docs/LIBRARY.md "What
/// hosting costs"): every kind of value reads as `PlistConversion` writes it, a removed key
/// reads as absent and is not noted.
@Suite struct KeyValueStoreReadValueTests {
    static let values: [(String, PlistValue?)] = [
        ("i", .integer(-7)), ("s", .string("a longer string than fifteen bytes")), ("t", .string("short")),
        ("b", .bool(true)), ("d", .double(2.5)), ("x", .data([0, 1, 254])), ("w", .date(epochMicroseconds: 1_700_000_000_123_456)),
        ("a", .array([.integer(1), .string("two")])), ("o", .makeDictionary([PlistEntry(key: "k", value: .bool(false))])),
        ("gone", nil),
    ]

    @Test("each kind of value reads as its conversion, and a tombstone as absent, unnoted")
    func everyKindReadsAsConverted() {
        var store = KVSEngine.LocalStore()
        for (sequence, (key, value)) in Self.values.enumerated() {
            store[key] = KVSEngine.LocalValue(value: value, write: WriteID(device: DeviceID(1), sequence: UInt32(sequence + 1)),
                                              timestamp: LocalInstant(microseconds: 0))
        }
        let reader = KeyValueStore(snapshot: KVSAppSnapshot(values: store), device: 3)
        for (key, value) in Self.values {
            #expect(reader.object(forKey: key) == value.map(PlistConversion.value), "\(key)")
        }
        #expect(reader.object(forKey: "never") == nil)
        let notes = reader.takeNotes()
        #expect(notes.map(\.note.key) == Self.values.compactMap { $0.1 == nil ? nil : $0.0 })
        #expect(notes.allSatisfy { $0.device == 3 && !$0.note.madeHere })
    }
}
