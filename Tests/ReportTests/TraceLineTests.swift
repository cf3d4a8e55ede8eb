import Testing
@testable import SyncLabReports
import SyncLabJSON
import SyncLabHistory

/// The lazy trace-line reader must answer exactly what parsing the whole line would.
@Suite("Reading saved trace lines")
struct TraceLineTests {
    /// Reads `text` as the only line of a trace.
    private func line(_ text: String) throws -> TraceLine {
        let bytes = Array(text.utf8)
        var line = TraceLine(trace: bytes)
        try line.read(0..<bytes.count)
        return line
    }

    @Test("plain members decode straight from the bytes")
    func plainMembers() throws {
        let read = try line(#"{"t_us":120,"ev":"send","device":"Ä1","req":-7,"ok":true,"no":false,"none":null}"#)
        #expect(read.int64("t_us") == 120)
        #expect(read.string("ev") == "send")
        #expect(read.string("device") == "Ä1")
        #expect(read.int64("req") == -7)
        #expect(read.bool("ok") == true)
        #expect(read.bool("no") == false)
        #expect(read.string("none") == nil)
        #expect(read.bool("none") == nil)
        #expect(read.string("missing") == nil)
        #expect(read.int64("ev") == nil)
    }

    @Test("the event kind matched on the bytes is the one the decoded `ev` string names")
    func eventKindFromBytes() throws {
        for kind in TraceEventKind.allCases {
            #expect(try line(#"{"t_us":1,"ev":"\#(kind.rawValue)"}"#).eventKind() == kind)
        }
        #expect(try line(#"{"ev":"se\u006ed"}"#).eventKind() == .send)
        #expect(try line(#"{"ev" : "push" }"#).eventKind() == .push)
        #expect(try line(#"{'ev':'op'}"#).eventKind() == .op)
        #expect(try line(#"{"ev":"sends"}"#).eventKind() == nil)
        #expect(try line(#"{"ev":"Send"}"#).eventKind() == nil)
        #expect(try line(#"{"ev":1}"#).eventKind() == nil)
        #expect(try line(#"{"t_us":1}"#).eventKind() == nil)
    }

    @Test("escapes, big and odd numbers, and nested values agree with JSONText's reader")
    func unusualMembers() throws {
        let text = #"{"s":"a\"b\\c\u00e9\n","big":9223372036854775807,"zero":0,"lead":007,"half":0.5,"list":["x",{"y":"]}"}],"o":{"k":[1,2]}}"#
        let read = try line(text)
        #expect(read.string("s") == "a\"b\\cé\n")
        #expect(read.int64("big") == Int64.max)
        #expect(read.int64("zero") == 0)
        #expect(read.int64("lead") == nil)
        #expect(read.int64("half") == nil)
        #expect(read.node("half")?.compactText == "0.5")
        #expect(read.node("list")?.compactText == #"["x",{"y":"]}"}]"#)
        #expect(read.node("o")?.compactText == #"{"k":[1,2]}"#)
    }

    @Test("a line in JSON5 rather than the writer's JSON is read through the reader")
    func json5Line() throws {
        let read = try line("{ t_us: 5, 'ev': 'op', // a comment\n device: \"A\", }")
        #expect(read.int64("t_us") == 5)
        #expect(read.string("ev") == "op")
        #expect(read.string("device") == "A")
    }

    @Test("a line that is not an object is an error")
    func notAnObject() {
        #expect(throws: JSONParseError.self) { _ = try line("[1,2]") }
        #expect(throws: JSONParseError.self) { _ = try line(#"{"a":}"#) }
        #expect(throws: JSONParseError.self) { _ = try line(#"{"a":"unterminated}"#) }
    }

    @Test("one reader reused for many lines forgets the previous line")
    func reuse() throws {
        let bytes = Array(#"{"a":1,"b":"x"}{"a":2}"#.utf8)
        var read = TraceLine(trace: bytes)
        try read.read(0..<15)
        #expect(read.int64("a") == 1)
        #expect(read.string("b") == "x")
        try read.read(15..<bytes.count)
        #expect(read.int64("a") == 2)
        #expect(read.string("b") == nil)
    }
}
