import Testing
import SyncLabExplore
import SyncLabScenario

@Suite struct GeneratorTests {
    @Test func sameSeedSameScenario() {
        for profile in FuzzProfile.allCases {
            for seed in UInt64(1)...5 {
                #expect(ScenarioGenerator.generate(profile: profile, seed: seed).text == ScenarioGenerator.generate(profile: profile, seed: seed).text)
            }
        }
    }

    @Test func seedsDiffer() {
        let texts = Set((UInt64(1)...20).map { ScenarioGenerator.generate(profile: .mixed, seed: $0).text })
        #expect(texts.count == 20)
    }

    @Test func generatedScenariosValidate() {
        for profile in FuzzProfile.allCases {
            for seed in UInt64(1)...40 {
                let generated = ScenarioGenerator.generate(profile: profile, seed: seed)
                if case .failure(let errors) = ScenarioLoader.parse(text: generated.text, path: "g.json") {
                    Issue.record("\(profile) seed \(seed): \(errors.errors.map(\.description))")
                }
            }
        }
    }

    @Test func swarmChoosesDeviceCountsAndFaultSubsets() {
        let choices = (UInt64(1)...200).map { ScenarioGenerator.generate(profile: .mixed, seed: $0).choices }
        #expect(Set(choices.map(\.devices)) == Set(2...8))
        for fault in FaultKind.allCases {
            #expect(choices.contains { $0.faults.contains(fault) }, "fault \(fault) never chosen")
            #expect(choices.contains { !$0.faults.contains(fault) }, "fault \(fault) always chosen")
        }
        // A KVS seed never enables record-only faults.
        let kvs = (UInt64(1)...50).map { ScenarioGenerator.generate(profile: .kvs, seed: $0).choices }
        #expect(!kvs.contains { $0.faults.contains(.zoneDeleteByUser) || $0.faults.contains(.tokenExpiry) })
    }

    @Test func choicesArePrintedInTheDescription() {
        let generated = ScenarioGenerator.generate(profile: .documents, seed: 9)
        #expect(generated.text.contains(generated.choices.summary))
    }

    /// A conformance review found three documents bugs the generator could never reach:
    /// synthetic content, empty appends, and device names with `/`. Real scenarios hold them.
    @Test func documentsTrafficHoldsTheInputsRealScenariosHold() {
        for profile in [FuzzProfile.documents, .mixed] {
            let texts = (UInt64(1)...300).map { ScenarioGenerator.generate(profile: profile, seed: $0).text }
            for needle in ["\"$size\"", "\"text\":\"\"", "\"content\":\"\"", "\"id\":\"Work/iPad\"", "\"id\":\"Zoë\"",
                           "notes/todo.txt", "\"README\"", "\"text\":\"é "] {
                #expect(texts.contains { $0.contains(needle) }, "\(profile): no seed of 1...300 holds \(needle)")
            }
        }
    }

    @Test func kvsTrafficHoldsEveryValueKind() {
        let texts = (UInt64(1)...300).map { ScenarioGenerator.generate(profile: .kvs, seed: $0).text }
        for needle in ["\"$data\"", "\"$date\"", "\"value\":true", "\"value\":false", "\"value\":[", "\"value\":{\"by\"", "\"by\":-"] {
            #expect(texts.contains { $0.contains(needle) }, "no kvs seed of 1...300 holds \(needle)")
        }
        #expect(texts.contains { $0.contains(/"value":-?[0-9]+\.[0-9]/) }, "no kvs seed of 1...300 sets a double")
    }

    @Test func recordsTrafficHoldsEveryFieldKindAndRemovals() {
        let texts = (UInt64(1)...300).map { ScenarioGenerator.generate(profile: .records, seed: $0).text }
        for needle in ["\"$ref\"", "\"$asset\"", "\"$data\"", "\"$date\"", "\"lat\"", "\"tags\":[", "\"score\":", "null", "\"delete\":["] {
            #expect(texts.contains { $0.contains(needle) }, "no records seed of 1...300 holds \(needle)")
        }
    }

    /// Session 16: SPEC §5 steps and inputs no seed drew (docs/FUZZING.md, "Still never drawn").
    @Test("every SPEC §5 input the generator used to leave out is drawn by some seed of each profile it applies to")
    func extraInputsAreDrawn() {
        let needles: [(FuzzProfile, [String])] = [
            (.kvs, ["\"op\":\"app.foreground\"", "\"op\":\"network.set\"", "\"op\":\"clock.set\"", "\"op\":\"cloud.clock.set\"",
                    "\"key\":\"k" + String(repeating: "x", count: 64) + "\"", "\"key\":\"" + String(repeating: "é", count: 33) + "\""]),
            (.documents, ["\"op\":\"app.foreground\"", "\"op\":\"network.set\"", "\"pushLoss\":1", "\"op\":\"clock.set\""]),
            (.records, ["\"op\":\"subscription.create\"", "\"database\":\"public\"", "\"type\":\"Task\"", "\"op\":\"cloud.clock.set\""]),
            (.mixed, ["\"op\":\"subscription.create\"", "\"database\":\"public\"", "\"type\":\"Task\"", "\"op\":\"app.foreground\""]),
        ]
        for (profile, wanted) in needles {
            let texts = (UInt64(1)...300).map { ScenarioGenerator.generate(profile: profile, seed: $0).text }
            for needle in wanted {
                #expect(texts.contains { $0.contains(needle) }, "\(profile): no seed of 1...300 holds \(needle)")
            }
        }
        // A record.save in the private default zone names no zone (the default) and no database.
        let records = (UInt64(1)...300).map { ScenarioGenerator.generate(profile: .records, seed: $0).text }
        #expect(records.contains { $0.contains(/"op":"record.save","type":"[A-Za-z]+","name"/) }, "no records seed saves into the private _defaultZone")
    }

    @Test("a seed that draws no extra input holds none of their steps, and its description does not mention them")
    func seedsWithoutExtrasAreUnchanged() {
        var without = 0, with = 0
        for profile in FuzzProfile.allCases {
            for seed in UInt64(1)...200 {
                let generated = ScenarioGenerator.generate(profile: profile, seed: seed)
                if generated.choices.extras.isEmpty {
                    without += 1
                    for op in ["app.foreground", "network.set", "clock.set", "subscription.create", "\"database\"", "Task", "extras="] {
                        #expect(!generated.text.contains(op), "\(profile) seed \(seed) drew no extras but holds \(op)")
                    }
                } else {
                    with += 1
                    #expect(generated.text.contains("extras=" + generated.choices.extras.map(\.rawValue).joined(separator: ",")))
                    #expect(generated.choices.extras.allSatisfy { $0.applies(to: profile) })
                }
            }
        }
        // About 40% of seeds draw any (ExtraInput's doc): most seeds keep their scenario.
        #expect(with > 200 && with < 420 && without > with, "with \(with), without \(without)")
    }
}
