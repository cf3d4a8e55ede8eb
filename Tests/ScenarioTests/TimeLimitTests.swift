import Testing
import SyncLabKernel
@testable import SyncLabScenario

/// Issue 14, crashes 1–4 and error 18: every duration and time a file writes is at most
/// `SimDuration.scenarioLimit` (100 years); beyond it the error says "too large" and the limit.
@Suite("Durations and times are capped")
struct TimeLimitTests {
    static let tooLarge = ["\"2000000000h\"", "\"99999999999999h\"", "\"2562047788h\"", "\"36526d\"", "\"-36526d\"", "9223372036854775807", "99999999999999999999", "\"1000000000000000000000000s\""]

    @Test("a duration past 100 years is 'too large', with the limit", arguments: tooLarge)
    func tooLargeDuration(value: String) {
        let places = [
            #""duration": \#(value)"#,
            #""engine": {"kvs": {"uploadDelay": \#(value)}}"#,
            #""end": {"settle": \#(value)}"#,
            #""steps": [{"at": \#(value), "device": "A", "op": "kvs.synchronize"}]"#,
            #""steps": [{"at": "0s", "device": "A", "op": "clock.jump", "by": \#(value)}]"#,
            #""steps": [{"at": "0s", "device": "A", "op": "kvs.synchronize", "every": \#(value), "times": 1000}]"#,
        ]
        for place in places {
            let errors = Load.errors(Load.scenario(place))
            #expect(errors.contains { $0.message.contains("too large") && $0.message.contains("876600h (100 years)") }, "\(place): \(Load.describe(errors))")
        }
        let device = Load.errors(Load.scenario("", devices: #"[{"id": "A", "clock": {"offset": \#(value)}}]"#))
        #expect(device.contains { $0.message.contains("too large") }, "\(Load.describe(device))")
    }

    @Test("exactly 100 years is accepted, for times and offsets of either sign")
    func atTheLimit() {
        let text = Load.scenario(#""duration": "36525d", "end": {"settle": "36525d"}, "steps": [{"at": "36525d", "device": "A", "op": "clock.jump", "by": "-36525d"}]"#)
        #expect(Load.errors(text).isEmpty, "\(Load.describe(Load.errors(text)))")
    }

    @Test("a drift above 1,000,000 ppm is too large")
    func driftLimit() {
        let errors = Load.errors(Load.scenario("", devices: #"[{"id": "A", "clock": {"driftPpm": 1e300}}]"#))
        #expect(errors.contains { $0.message.contains("too large") && $0.message.contains("1000000 ppm") })
    }

    @Test("time arithmetic saturates instead of trapping")
    func saturating() {
        #expect((SimInstant(microseconds: .max) + SimDuration(microseconds: 1)).microseconds == .max)
        #expect((SimInstant(microseconds: .min) - SimDuration(microseconds: 1)).microseconds == .min)
        #expect((SimDuration.scenarioLimit * 1_000_000).microseconds == .max)
        #expect((SimDuration(microseconds: -5) * .max).microseconds == .min)
        #expect((SimInstant(microseconds: .min) - SimInstant(microseconds: .max)).microseconds == .min)
        #expect(SimDuration.seconds(.max).microseconds == .max)
    }
}
