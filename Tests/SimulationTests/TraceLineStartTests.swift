import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabSimulation

/// A transport line's start is copied, not formatted: the time's `{"t_us":DIGITS` from the last
/// line's when the time is the same (`TraceTimePrefix`), the device's quoted, escaped name from
/// a table laid out once per run (`TraceDeviceFields`). Both must give the bytes the JSON
/// renderer gives for the same fields, whatever the order of times and names.
@Suite("Trace line start")
struct TraceLineStartTests {
    /// Names that need escaping, are long (past the word copies' 32 bytes), are not ASCII, or are empty.
    static let deviceNames = ["d0", "a \"quoted\" name", "back\\slash", "tab\there\u{1}", "é device ☁️", "", String(repeating: "long-name-", count: 7), "cloud"]

    /// Times in an order that reuses, changes and returns to values, at every digit count and sign.
    static let times: [Int64] = {
        var times: [Int64] = [0, 0, 5, 5, 5, 7, 5, -3, -3, 0, Int64.max, Int64.max, Int64.min, Int64.min + 1, 9, 10, 10, 99, 100, 1_000_000]
        var power: Int64 = 1
        while power <= Int64.max / 10 { times += [power - 1, power, power, power + 1, -power]; power *= 10 }
        return times
    }()

    /// Every (time, device) pair written with `begin`, and the same fields through the JSON renderer.
    static func lines(fast: Bool) -> [UInt8] {
        var recorder = TraceRecorder(enabled: true, deviceNames: deviceNames, accountNames: ["main"], chunkBytes: 512)
        for (step, microseconds) in times.enumerated() {
            let time = SimInstant(microseconds: microseconds)
            for device in [nil] + deviceNames.indices.map(Optional.some) {
                let request = UInt64(step * 31 + (device ?? 99))
                let store: Store = [.kvs, .documents, .records][step % 3]
                if fast {
                    recorder.begin(time, .send, device: device, store: store, request: step % 2 == 0 ? request : nil)
                    recorder.add("kind", "fetch")
                    recorder.end()
                } else {
                    var fields: [(String, JSON)] = [("device", .string(device.map { deviceNames[$0] } ?? "cloud")), ("store", .string(store.rawValue))]
                    if step % 2 == 0 { fields.append(("req", .uint(request))) }
                    fields.append(("kind", .string("fetch")))
                    recorder.record(time, .send, fields)
                }
            }
        }
        recorder.flush()
        return recorder.bytes
    }

    @Test("begin's copied time and device name are the bytes the JSON renderer writes, for names that need escaping and times that repeat, change and return")
    func copiedStartEqualsRendered() {
        let fast = Self.lines(fast: true), rendered = Self.lines(fast: false)
        #expect(fast.count > 4 * 512) // across many chunks
        #expect(fast == rendered)
        let text = String(decoding: fast, as: UTF8.self)
        #expect(text.contains(#"{"t_us":-3,"ev":"send","device":"a \"quoted\" name","store":"#))
        #expect(text.contains(#"{"t_us":9223372036854775807,"ev":"send","device":"tab\there\u0001","store":"#))
    }

    @Test("a write id is spelled from the device table as History spells it, and as ? outside the run's devices")
    func writeIDsFromTheTable() {
        var recorder = TraceRecorder(enabled: true, deviceNames: Self.deviceNames, accountNames: ["main"])
        var expected = ""
        for device in 0...Self.deviceNames.count {
            let write = WriteID(device: DeviceID(index: device), sequence: UInt32(device * 3), derived: device % 2 == 1)
            recorder.begin(SimInstant(microseconds: 0), .visible, device: nil, store: .kvs)
            recorder.add("write", write: write)
            recorder.end()
            var name: [UInt8] = []
            JSON.writeString(History.name(of: write, deviceNames: Self.deviceNames), into: &name)
            expected += #"{"t_us":0,"ev":"visible","device":"cloud","store":"kvs","write":"# + String(decoding: name, as: UTF8.self) + "}\n"
        }
        recorder.flush()
        #expect(String(decoding: recorder.bytes, as: UTF8.self) == expected)
    }
}
