import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabSimulation

/// A `notify` line whose items are all plain is written in one piece after its reason; any
/// other goes item by item. Both must give the bytes the JSON renderer gives for the same fields.
@Suite("Trace notify line")
struct TraceNotifyLineTests {
    /// Item lists written in one piece (none, empty names, up to 16 bytes) and ones that are not
    /// (a name of 17 bytes, one to escape, one not ASCII), with short and long reasons.
    static let itemLists: [[String]] = [
        [], ["k0"], ["", "k1", ""], ["key-sixteen-byte", "k2", "k3"], (0..<40).map { "k\($0)" },
        ["key-seventeen-byte"], ["k\"q"], ["back\\slash", "k4"], ["é", "k5"], ["k6", "line\nbreak"],
    ]
    static let reasons = ["serverChange", "quotaViolationChange", "a \"quoted\" reason"]

    static func lines(fast: Bool) -> [UInt8] {
        let deviceNames = ["d0", "d1"]
        var recorder = TraceRecorder(enabled: true, deviceNames: deviceNames, accountNames: ["main"], chunkBytes: 128)
        for (step, items) in itemLists.enumerated() {
            for (index, reason) in reasons.enumerated() {
                let time = SimInstant(microseconds: Int64(step * 10 + index))
                let notification = AppNotification(store: index == 1 ? .records : .kvs, reason: reason, items: items)
                if fast {
                    recorder.notification(time, step % 2, notification)
                } else {
                    recorder.record(time, .notify, [("device", .string(deviceNames[step % 2])), ("store", .string(notification.store.rawValue)),
                                                    ("reason", .string(reason)), ("items", .array(items.map { .string($0) }))])
                }
            }
        }
        recorder.flush()
        return recorder.bytes
    }

    @Test("a notify line, its items written in one piece or one by one, is the bytes the JSON renderer writes")
    func notifyLinesEqualRendered() {
        let fast = Self.lines(fast: true), rendered = Self.lines(fast: false)
        #expect(fast.count > 8 * 128) // across many chunks
        #expect(fast == rendered)
        let text = String(decoding: fast, as: UTF8.self)
        #expect(text.contains(#""reason":"serverChange","items":["key-sixteen-byte","k2","k3"]}"#))
        #expect(text.contains(#""reason":"serverChange","items":["","k1",""]}"#))
        #expect(text.contains(#""reason":"serverChange","items":[]}"#))
    }
}
