import Testing
@testable import SyncLabScenario

/// One name written in two Unicode normalization forms (`"café"` with U+00E9 and with `e` +
/// U+0301) is refused at validation: Swift strings take the two as one name, bytes as two, so
/// such a file ran as two keys in the cloud and one on each device (a divergence no engine
/// caused) and then failed to write its reports (`result.json` held a key twice for its reader).
@Suite("A name spelled in two Unicode normalization forms")
struct NameSpellingTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    static func steps(_ steps: [String], expect: String = "") -> String {
        Load.scenario("\"steps\": [\(steps.joined(separator: ",\n"))]" + (expect.isEmpty ? "" : ",\n\"expect\": \(expect)"))
    }

    @Test("is an error at its second spelling, naming the first and the code points of each, for every kind of name",
          arguments: [
            // KVS keys: kvs.set, then kvs.setMany, kvs.remove, kvs.increment.
            (#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "\#(nfc)", "value": 1}"#, #"{"at": "2s", "device": "B", "op": "kvs.set", "key": "\#(nfd)", "value": 2}"#, "steps[1].key"),
            (#"{"at": "1s", "device": "A", "op": "kvs.remove", "key": "\#(nfc)"}"#, #"{"at": "2s", "device": "B", "op": "kvs.setMany", "values": {"\#(nfd)": 2}}"#, "steps[1].values[\"\(nfd)\"]"),
            (#"{"at": "1s", "device": "A", "op": "kvs.increment", "key": "\#(nfc)"}"#, #"{"at": "2s", "device": "B", "op": "kvs.remove", "key": "\#(nfd)"}"#, "steps[1].key"),
            // Document paths.
            (#"{"at": "1s", "device": "A", "op": "doc.save", "path": "\#(nfc).txt", "content": "x"}"#, #"{"at": "2s", "device": "B", "op": "doc.append", "path": "\#(nfd).txt", "text": "y"}"#, "steps[1].path"),
            // Zones, record names, field names.
            (#"{"at": "1s", "device": "A", "op": "zone.create", "zone": "\#(nfc)"}"#, #"{"at": "2s", "device": "B", "op": "record.save", "zone": "\#(nfd)", "type": "T", "name": "r", "fields": {"f": 1}}"#, "steps[1].zone"),
            (#"{"at": "1s", "device": "A", "op": "record.save", "type": "T", "name": "\#(nfc)", "fields": {"f": 1}}"#, #"{"at": "2s", "device": "B", "op": "record.delete", "name": "\#(nfd)"}"#, "steps[1].name"),
            (#"{"at": "1s", "device": "A", "op": "record.save", "type": "T", "name": "r", "fields": {"\#(nfc)": 1}}"#, #"{"at": "2s", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "q", "fields": {"\#(nfd)": 1}}]}"#, "steps[1].records[0].fields[\"\(nfd)\"]"),
            (#"{"at": "1s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "\#(nfc)", "fields": {"f": 1}}"#, #"{"at": "2s", "device": "B", "op": "records.saveAtomic", "zone": "Z", "delete": ["\#(nfd)"]}"#, "steps[1].delete[0]"),
            // U+212A KELVIN SIGN decomposes to K alone: an ASCII name has another spelling too.
            (#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "Kelvin", "value": 1}"#, #"{"at": "2s", "device": "B", "op": "kvs.set", "key": "\u212Aelvin", "value": 2}"#, "steps[1].key"),
            (#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "\u212Aelvin", "value": 1}"#, #"{"at": "2s", "device": "B", "op": "kvs.remove", "key": "Kelvin"}"#, "steps[1].key"),
          ])
    func secondSpellingRefused(first: String, second: String, path: String) {
        let errors = Load.errors(Self.steps([#"{"at": "0s", "device": "A", "op": "zone.create", "zone": "Z"}"#, first, second]))
        // The zone.create at 0s is steps[0]: the pair is steps[1] and steps[2].
        let shifted = path.replacingOccurrences(of: "steps[1]", with: "steps[2]")
        let error = errors.first { $0.path == shifted }
        #expect(error != nil, "\(Load.describe(errors))")
        #expect(error?.message.contains("another Unicode normalization form") == true)
        // The first spelling is steps[1], on the file's third line.
        #expect(error?.message.contains("written at line 3, column ") == true, "\(error?.message ?? "")")
        #expect(errors.count == 1, "\(Load.describe(errors))")
    }

    @Test("expect.final and assert names are held to the steps' spellings")
    func finalAndAssert() {
        let errors = Load.errors(Self.steps([#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "\#(Self.nfc)", "value": 1}"#,
                                             #"{"at": "2s", "device": "A", "op": "assert", "documents": {"\#(Self.nfd).txt": null}}"#,
                                             #"{"at": "3s", "device": "A", "op": "doc.save", "path": "\#(Self.nfc).txt", "content": "x"}"#],
                                            expect: #"{"final": {"kvs": {"\#(Self.nfd)": 1}, "records": {"_defaultZone/\#(Self.nfd)": null}}}"#))
        #expect(Set(errors.map(\.path)) == ["steps[2].path", "expect.final.kvs[\"\(Self.nfd)\"]"], "\(Load.describe(errors))")
        #expect(errors.first { $0.path == "expect.final.kvs[\"\(Self.nfd)\"]" }?.message.contains("U+0065 U+0301 here, U+00E9 there") == true)
    }

    @Test("one spelling throughout, in either form, and different spellings for names of different kinds, are valid")
    func oneSpellingIsValid() {
        for name in [Self.nfc, Self.nfd, "\u{212A}elvin"] {
            let text = Self.steps([#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "\#(name)", "value": 1}"#,
                                   #"{"at": "2s", "device": "B", "op": "kvs.remove", "key": "\#(name)"}"#],
                                  expect: #"{"final": {"kvs": {"\#(name)": null}}}"#)
            #expect(Load.errors(text).isEmpty, "\(Load.describe(Load.errors(text)))")
        }
        let kinds = Self.steps([#"{"at": "1s", "device": "A", "op": "kvs.set", "key": "\#(Self.nfc)", "value": 1}"#,
                                #"{"at": "1s", "device": "A", "op": "doc.save", "path": "\#(Self.nfd)", "content": "x"}"#,
                                #"{"at": "1s", "device": "A", "op": "record.save", "type": "T", "name": "\#(Self.nfc)", "fields": {"\#(Self.nfd)": 1}}"#])
        #expect(Load.errors(kinds).isEmpty, "\(Load.describe(Load.errors(kinds)))")
    }
}
