import Testing
import SyncLabJSON
import SyncLabKernel
@testable import SyncLabScenario

/// The total of steps after expansion is bounded (issue 14, item 8): a 250-byte file could ask
/// for two million steps and grow memory past 5 GB before the run began.
struct ExpansionLimitTests {
    @Test func twoMillionIncrementsAreRefusedNamingTheStepThatCrossesTheLimit() {
        // Every repetition on both devices: 2 × 1,000,000, past the limit at the first step, so
        // nothing is expanded at all.
        let text = Load.scenario(#"""
            "duration": "36500d",
            "steps": [
              {"at": "0s", "every": "1s", "times": 1000000, "device": "*", "op": "kvs.increment", "key": "a"},
              {"at": "0s", "every": "1s", "times": 1000000, "device": "A", "op": "kvs.increment", "key": "b"}
            ]
            """#)
        let errors = Load.errors(text)
        #expect(errors.count == 1, "\(Load.describe(errors))")
        #expect(errors.first?.path == "steps[0].times")
        #expect(errors.first?.message.hasPrefix("too many steps after expansion: 3000000 (limit 1000000)") == true, "\(Load.describe(errors))")
    }

    @Test(arguments: [(9, true), (10, true), (11, false)])
    func theLimitItselfIsAllowedAndOneMoreIsNot(times: Int, allowed: Bool) throws {
        // Devices count: "*" on two devices is two steps per repetition.
        let steps = try JSON5Reader.parse(#"[{"at": "0s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}, {"at": "1s", "every": "1ms", "times": \#(times - 1), "device": "A", "op": "kvs.synchronize"}]"#)
        let reader = ScenarioReader(file: "t.json")
        var resolver = StepResolver(reader: reader, deviceIDs: ["A", "B"], accounts: ["main"], duration: .seconds(3_600))
        resolver.expandedStepsLimit = 10
        let resolved = resolver.resolve(steps, JSONPath.root.key("steps"))
        let errors = reader.sortedErrors()
        #expect(resolved.count == (allowed ? times : 0))
        #expect(errors.map(\.path) == (allowed ? [] : ["steps[1].times"]))
        #expect(errors.first.map { $0.message.hasPrefix("too many steps after expansion: \(times) (limit 10)") } ?? allowed)
    }

    @Test func stepsPastTheLimitStillHaveTheirArgumentsChecked() {
        let text = Load.scenario(#"""
            "duration": "36500d",
            "steps": [
              {"at": "0s", "every": "1s", "times": 1000000, "device": "*", "op": "kvs.set", "key": "k", "value": 1},
              {"at": "0s", "device": "A", "op": "kvs.set", "key": "k", "value": {"nested": null}}
            ]
            """#)
        let paths = Load.errors(text).map(\.path)
        #expect(paths.contains("steps[0].times"))
        #expect(paths.contains { $0.hasPrefix("steps[1].value") })
    }
}
