import Testing
import SyncLabJSON
@testable import SyncLabScenario

/// Issue 14: hostile ids, encodings and names get clear errors at bounded cost.
@Suite("Hostile input")
struct HostileInputTests {
    /// By name: the test log prints arguments raw, and a raw `\n::error` there would be obeyed
    /// by GitHub Actions.
    static let hostileIDs = ["override": "A\u{202E}B", "workflow command": "C\n::error::x", "escape sequence": "\u{1B}[2J", "isolate": "D\u{2066}"]

    @Test("ids with a bidi control or a control character are refused", arguments: hostileIDs.keys.sorted())
    func badIDs(name: String) {
        let id = Self.hostileIDs[name]!
        var encoded = ""
        JSON.writeString(id, into: &encoded)
        let errors = Load.errors(Load.scenario("", devices: "[{\"id\": \(encoded)}]"))
        #expect(errors.contains { $0.message.contains("can't hold control or bidirectional formatting characters") }, "\(Load.describe(errors))")
        #expect(!Load.describe(errors).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || TerminalText.isBidiControl($0) })
    }

    @Test("a UTF-16 file is called UTF-16, with the fix", arguments: [[0xFF, 0xFE, 0x7B, 0, 0x7D, 0], [0x7B, 0, 0x7D, 0], [0xFE, 0xFF, 0, 0x7B, 0, 0x7D]] as [[UInt8]])
    func utf16(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSON5Reader.parse(bytes: bytes) }
        do { _ = try JSON5Reader.parse(bytes: bytes) } catch {
            #expect(error.message.contains("UTF-16") && error.message.contains("save it as UTF-8"))
        }
    }

    @Test("'did you mean' skips names too long to be typos and candidates of another length")
    func boundedSuggestion() {
        let long = String(repeating: "z", count: 5_000)
        #expect(Suggestion.closest(to: long, in: [long + "y"]) == nil)
        #expect(Suggestion.closest(to: "devce", in: ["device", String(repeating: "x", count: 10_000)]) == "device")
        let ids = (0..<20_000).map { "d\($0)" }
        #expect(Suggestion.list(ids).hasSuffix("… and 19980 more"))
    }

    @Test("terminal text shows control characters and bidi controls as JSON escapes")
    func terminalText() {
        #expect(TerminalText.escape("a\n::error::x\r\u{1B}[31m\u{202E}") == "a\\n::error::x\\r\\u001B[31m\\u202E")
        #expect(TerminalText.escape("line\n\tnext", keepingNewlines: true) == "line\n\tnext")
        #expect(TerminalText.escape("plain") == "plain")
    }
}
