import Testing
import SyncLabJSON
import SyncLabKernel
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

    @Test func aDisabledRecorderWritesNothing() {
        var recorder = TraceRecorder(enabled: false, deviceNames: [], accountNames: [])
        recorder.record(SimInstant(microseconds: 0), .op, [("device", .string("A"))])
        recorder.flush()
        #expect(recorder.bytes.isEmpty)
    }
}
