import Testing
import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol
@testable import SyncLabSimulation

/// Trace lines are written member by member; they must be the bytes of the object they stand for.
@Suite("Trace lines")
struct TraceLineTests {
    @Test func aLineIsTheCompactObjectWithTimeAndEventFirst() {
        var recorder = TraceRecorder(enabled: true, deviceNames: [], accountNames: [])
        let fields: [(String, JSON)] = [
            ("device", .string("A \"quoted\"\n")), ("n", .int(-3)), ("items", .array([.string("é"), .null, .double(1.5)])),
            ("details", .object([("k", .bool(true))])), ("empty", .object([JSONField]())),
        ]
        recorder.record(SimInstant(microseconds: 1_500), .op, fields)
        recorder.record(SimInstant(microseconds: -7), .end, [])
        recorder.flush() // lines wait in the recorder's chunk until handed on
        let expected = JSON.object([("t_us", .int(1_500)), ("ev", .string("op"))] + fields).rendered() + "\n"
            + JSON.object([("t_us", .int(-7)), ("ev", .string("end"))]).rendered() + "\n"
        #expect(recorder.bytes == Array(expected.utf8))
    }

    /// A log line with typed details has the bytes of the same line with its details as text.
    @Test func aTypedLogLineIsTheLineOfItsDetailsAsText() {
        let lines: [LogFields] = [
            LogFields("kvsFetch", ("request", .number(7)), ("since", .number(nil, else: "none"))),
            LogFields("kvsFetched", ("request", .number(0)), ("changes", .count(12)), ("cursor", .number(UInt64.max)), ("reason", .literal("initialSyncChange"))),
            LogFields("kvsUpload", ("calls", .count(1_234_567_890_123)), ("accepted", .number(10)), ("rejected", .number(99)), ("superseded", .number(100))),
            LogFields("a \"quoted\"", ("k\n", .literal("\u{1}é"))),
            LogFields("empty"),
            // A one-letter literal may be stored as a scalar, not UTF-8; longer ones checked by words.
            LogFields("x", ("n", .literal("a literal longer than sixteen bytes")), ("m", .literal("p"))),
            LogFields("longer than thirty-two bytes, no escapes", ("tail", .literal("seventeen bytes \\"))),
            LogFields("e", ("quote at byte 20 of 24", .literal("0123456789abcdefghi\"jkl"))),
        ]
        var typed = TraceRecorder(enabled: true, deviceNames: ["d0", "d1"], accountNames: [])
        var text = TraceRecorder(enabled: true, deviceNames: ["d0", "d1"], accountNames: [])
        for (index, line) in lines.enumerated() {
            let time = SimInstant(microseconds: Int64(index) * 1_000_003), device: Int? = index % 2 == 0 ? 1 : nil
            typed.log(time, device, .kvs, line)
            text.log(time, device, .kvs, line.event.description, line.details)
        }
        typed.flush(); text.flush()
        #expect(String(decoding: typed.bytes, as: UTF8.self) == String(decoding: text.bytes, as: UTF8.self))
        #expect(lines[0].details.map { "\($0.0)=\($0.1)" } == ["request=7", "since=none"])
        #expect(lines[1].details.map(\.1) == ["0", "12", "18446744073709551615", "initialSyncChange"])
        #expect(lines[4].count == 0 && lines[2].count == 4)
    }

    /// More shapes than the template cache has slots (each made again once its slot was
    /// taken), and a copied recorder making templates of its own: every line as its text.
    @Test func typedLogLinesOfManyShapesAndCopiedRecordersAreTheirText() {
        let events: [StaticString] = ["kvsFetch", "kvsFetched", "kvsUpload", "e\\"]
        let names: [StaticString] = ["request", "since", "calls", "n"]
        let literals: [StaticString] = ["none", "serverChange", "q\"", "a literal longer than thirty-two bytes"]
        var lines: [LogFields] = []
        for event in events {
            for name in names {
                for (index, literal) in literals.enumerated() {
                    lines.append(LogFields(event, (name, .literal(literal))))
                    lines.append(LogFields(event, (name, .number(UInt64(index) * 999_999_937)), ("calls", .literal(literal)), ("n", .count(index))))
                }
            }
        }
        #expect(lines.count == 128) // twice the slots
        var typed = TraceRecorder(enabled: true, deviceNames: ["d0"], accountNames: [])
        var text = TraceRecorder(enabled: true, deviceNames: ["d0"], accountNames: [])
        func write(_ line: LogFields, _ index: Int, typed: inout TraceRecorder, text: inout TraceRecorder) {
            let time = SimInstant(microseconds: Int64(index)), device: Int? = index % 3 == 0 ? nil : 0
            typed.log(time, device, .kvs, line)
            text.log(time, device, .kvs, line.event.description, line.details)
        }
        // Forwards, backwards, then in a stride: slots are taken, retaken and hit.
        for (index, line) in (lines + lines.reversed()).enumerated() { write(line, index, typed: &typed, text: &text) }
        for index in stride(from: 0, to: lines.count, by: 7) { write(lines[index], index, typed: &typed, text: &text) }
        // Copies share the templates until one makes another; each writes the bytes of its text.
        var typedCopy = typed, textCopy = text
        for (index, line) in lines.enumerated().reversed() {
            write(line, index, typed: &typedCopy, text: &textCopy)
            if index % 5 == 0 { write(line, index, typed: &typed, text: &text) }
        }
        typed.flush(); text.flush(); typedCopy.flush(); textCopy.flush()
        #expect(String(decoding: typed.bytes, as: UTF8.self) == String(decoding: text.bytes, as: UTF8.self))
        #expect(String(decoding: typedCopy.bytes, as: UTF8.self) == String(decoding: textCopy.bytes, as: UTF8.self))
        #expect(typed.bytes.count > 30_000)
    }

    @Test func aDisabledRecorderWritesNothing() {
        var recorder = TraceRecorder(enabled: false, deviceNames: [], accountNames: [])
        recorder.record(SimInstant(microseconds: 0), .op, [("device", .string("A"))])
        recorder.flush()
        #expect(recorder.bytes.isEmpty)
    }
}
