import Testing
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
import SyncLabResult
@testable import SyncLabSimulation

/// A `visible` line is written straight into the buffer: its account copied from a table laid
/// out once per run (escaped as the JSON renderer escapes), its cause copied as a literal. Both
/// must give the bytes the JSON renderer gives for the same fields.
@Suite("Trace visible line")
struct TraceVisibleLineTests {
    /// Account names that need escaping, are long (past the word copies' 32 bytes), are not ASCII, or are empty.
    static let accountNames = ["main", "an \"odd\" one", "back\\slash\n", "é ☁️ account", "", String(repeating: "account-", count: 6), "public"]
    static let causes: [VisibilityCause] = [.local, .fetch, .rollback, .resolution, .reset]

    /// Every account (and the public database), cause and value kind as a `visible` line, from
    /// `observation` or through the JSON renderer.
    /// With `integers`, the line `visibleTail` writes in one piece: names with nothing to escape
    /// (one past its 16 bytes), KVS integers (negative, the extremes), writes by the run's
    /// devices, derived or not; and beside them lines it leaves to the fields (a field, no
    /// write, a device not in the run, a long name).
    static func lines(fast: Bool, integers: Bool = false) -> [UInt8] {
        let deviceNames = ["d0", "d1"]
        var recorder = TraceRecorder(enabled: true, deviceNames: deviceNames, accountNames: accountNames, chunkBytes: 256)
        let accounts = accountNames.indices.map { AccountID(index: $0) } + [.publicDatabase]
        for (step, account) in accounts.enumerated() {
            for (index, cause) in causes.enumerated() {
                let time = SimInstant(microseconds: Int64(step * 10 + index))
                // Names with and without escapes (the latter written with their key in one piece).
                var key = ItemKey(account: account, store: index % 2 == 0 ? .kvs : .records, name: index % 2 == 0 ? "k\"\(index)" : "k\(index)", field: index == 3 ? "f" : "")
                var value: ItemValue = index % 2 == 0 ? .kvs(.integer(Int64(step) - 3)) : .kvs(.string("s\(index)"))
                if integers {
                    let names = ["k0", "key-sixteen-byte", "key-seventeen-byte", ""]
                    key = ItemKey(account: account, store: .kvs, name: names[(step + index) % names.count], field: index == 3 && step % 2 == 0 ? "f" : "")
                    let numbers: [Int64] = [0, -7, .min, .max, Int64(step) * 1_000_000_007]
                    value = .kvs(.integer(numbers[(step + index) % numbers.count]))
                }
                // Writes by each device, derived ones, and one by a device not in the run (`?`).
                let write: WriteID? = index == 4 ? nil : WriteID(device: DeviceID(index: index == 3 ? 7 : index % 2), sequence: UInt32(step * 1_000_003), derived: index == 1)
                let device: Int? = index == 2 ? nil : step % 2
                if fast {
                    recorder.observation(time, device, .visible(item: key, value: value, write: write, cause: cause))
                } else {
                    var fields: [(String, JSON)] = [("device", .string(device.map { deviceNames[$0] } ?? "cloud")), ("store", .string(key.store.rawValue)),
                                                    ("account", .string(History.accountName(account, accountNames: accountNames))), ("item", .string(key.name))]
                    if !key.field.isEmpty { fields.append(("field", .string(key.field))) }
                    fields.append(("write", write.map { .string(History.name(of: $0, deviceNames: deviceNames)) } ?? .null))
                    fields += [("value", ValueJSON.json(value)), ("cause", .string(cause.rawValue))]
                    recorder.record(time, .visible, fields)
                }
            }
        }
        recorder.flush()
        return recorder.bytes
    }

    @Test("a visible line's copied account and cause are the bytes the JSON renderer writes, for account names that need escaping and the public database")
    func copiedAccountAndCauseEqualRendered() {
        let fast = Self.lines(fast: true), rendered = Self.lines(fast: false)
        #expect(fast.count > 4 * 256) // across many chunks
        #expect(fast == rendered)
        let text = String(decoding: fast, as: UTF8.self)
        #expect(text.contains(#""account":"back\\slash\n","item":"k\"0""#))
        #expect(text.contains(#""account":"public","item":"#))
    }

    @Test("a visible line of a plain name, a write and a KVS integer, written in one piece, is the bytes the JSON renderer writes")
    func onePieceLinesEqualRendered() {
        let fast = Self.lines(fast: true, integers: true), rendered = Self.lines(fast: false, integers: true)
        #expect(fast == rendered)
        let text = String(decoding: fast, as: UTF8.self)
        #expect(text.contains(#""account":"main","item":"key-sixteen-byte","write":"d1:m0","value":-7,"cause":"fetch"}"#))
        #expect(text.contains(#""value":-9223372036854775808,"cause":"#))
        #expect(text.contains(#""write":"d1:m"#))
    }

    @Test("every visibility cause's literal spells its raw value")
    func causeLiterals() {
        for cause in Self.causes {
            #expect(cause.traceLiteral.description == cause.rawValue)
            #expect(cause.visibleLineEnd.description == ",\"cause\":\"\(cause.rawValue)\"}\n")
        }
    }
}
