import SyncLabJSON
import SyncLabProtocol
import Testing
@testable import SyncLabScenario

@Suite("Scenario validation errors")
struct ValidationTests {
    /// The single error a text gives at `path`, or nil (recording an issue).
    private func error(_ text: String, at path: String, sourceLocation: SourceLocation = #_sourceLocation) -> ScenarioError? {
        let errors = Load.errors(text)
        let matching = errors.filter { $0.path == path }
        if matching.isEmpty {
            Issue.record("no error at \(path); errors:\n\(Load.describe(errors))", sourceLocation: sourceLocation)
        }
        return matching.first
    }

    @Test func invalidJSONIsOneErrorWithItsPosition() {
        let errors = Load.errors("{\"format\": \"synclab/1\",\n  \"name\": }")
        #expect(errors.count == 1)
        #expect(errors[0].position == SourcePosition(line: 2, column: 11))
        #expect(errors[0].description.hasPrefix("t.json:2:11: (root): invalid JSON:"))
    }

    @Test func aDeployedSchemaResolvesAndItsMistakesAreNamedByPath() throws {
        let file = try #require(Load.file(Load.scenario(#""environment": "production", "schema": {"Note": {"title": "string", "tags": "list<reference>"}}"#)))
        #expect(file.runs[0].schema == [RecordTypeSchema(type: "Note", fields: ["title": "string", "tags": "list<reference>"])])
        #expect(file.runs[0].environment == .production)
        let errors = Load.errors(Load.scenario(#"""
        "schema": {"Note": {"title": "text", "tags": "list<list<string>>", "n": 3}, "Bad": []}
        """#))
        #expect(errors.map(\.path) == ["schema.Note.title", "schema.Note.tags", "schema.Note.n", "schema.Bad"])
        #expect(errors.first?.message.hasPrefix("unknown field kind \"text\": expected one of string, int,") == true)
        #expect(Load.errors(Load.scenario(#""schema": ["Note"]"#)).map(\.path) == ["schema"])
    }

    @Test func zoneNamesCannotHoldASlashThatWouldMergeTwoRecordIDs() {
        let errors = Load.errors(Load.scenario(#"""
        "steps": [{"at": "0s", "device": "A", "op": "zone.create", "zone": "a/b"},
                  {"at": "1s", "device": "A", "op": "record.save", "zone": "a/b", "type": "T", "name": "c", "fields": {}},
                  {"at": "2s", "op": "cloud.throttle", "for": "1m", "retryAfter": "5s", "zone": "x/"},
                  {"at": "3s", "device": "A", "op": "record.save", "zone": "a", "type": "T", "name": "b/c", "fields": {}}]
        """#))
        #expect(errors.map(\.path) == ["steps[0].zone", "steps[1].zone", "steps[2].zone"])
        #expect(errors.first?.message.hasPrefix("expected a zone name without \"/\"") == true)
    }

    @Test func documentPathsStayInsideTheContainer() {
        let paths = ["../x.txt", "/abs.txt", "dir/", "a//b.txt", "./x", "ok/name.txt"]
        let steps = paths.enumerated().map { #"{"at": "\#($0.offset)s", "device": "A", "op": "doc.save", "path": "\#($0.element)", "content": "x"}"# }
        let errors = Load.errors(Load.scenario("\"steps\": [\(steps.joined(separator: ", "))]"))
        #expect(errors.map(\.path) == (0..<5).map { "steps[\($0)].path" })
        #expect(errors.first?.message.hasPrefix("expected a document path inside the container") == true)
    }

    @Test func aZoneThrottleNamesItsZone() throws {
        let file = try #require(Load.file(Load.scenario(#""steps": [{"at": "1s", "op": "cloud.throttle", "for": "1m", "retryAfter": "5s", "zone": "Notes"}]"#)))
        guard case .cloudThrottle(_, _, let zone) = file.runs[0].steps[0].op else { Issue.record("not a throttle"); return }
        #expect(zone == "Notes")
        let errors = Load.errors(Load.scenario(#""steps": [{"at": "1s", "op": "cloud.throttle", "for": "1m", "retryAfter": "5s", "zone": ""}]"#))
        #expect(errors.map(\.path) == ["steps[0].zone"])
    }

    @Test func notificationReasonsAreCheckedWithASuggestion() {
        let errors = Load.errors(Load.scenario(#""expect": {"notifications": [{"device": "A", "reason": "serverchange"}, {"device": "B", "reason": "didChange", "max": 0}]}"#))
        #expect(errors.map(\.path) == ["expect.notifications[0].reason", "expect.notifications[1].reason"])
        #expect(errors.first?.message.contains("did you mean 'serverChange'?") == true)
    }

    @Test func anUnknownPlaceholderIsAnErrorNotALiteral() {
        let errors = Load.errors(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k${j}", "value": "${device}-${i}", "every": "1s", "times": 2}]"#))
        #expect(errors.map(\.path) == ["steps[0].key"])
        #expect(errors.first?.message.hasPrefix("unknown placeholder ${j}") == true)
    }

    @Test func aDecimalDurationNeedsAUnit() {
        let errors = Load.errors(Load.scenario(#""steps": [{"at": "1.5", "device": "A", "op": "kvs.synchronize"}, {"at": "1500", "device": "A", "op": "kvs.synchronize"}]"#))
        #expect(errors.map(\.path) == ["steps[0].at"])
        // It says why, not that 1.5 is "too large".
        #expect(errors.first?.message == #"expected a step time like "250ms" or "1.5s" (units us, ms, s, m, h, d), got "1.5": a number with a decimal point needs a unit (only a whole number means milliseconds)"#, "\(Load.describe(errors))")
    }

    @Test func emptyAndBinaryFilesAreErrors() {
        #expect(Load.errors("").first?.message.contains("empty input") == true)
        guard case .failure(let binary) = ScenarioLoader.parse(bytes: [0x89, 0x50, 0x4E, 0x47, 0x00], path: "x.png") else { Issue.record("parsed"); return }
        #expect(binary.errors.count == 1)
        #expect(binary.errors[0].message.contains("not UTF-8"))
    }

    @Test func theRootMustBeAnObject() {
        #expect(Load.errors("[1, 2]").first?.message.hasPrefix("expected the scenario as an object such as {\"format\": \"synclab/1\"") == true)
    }

    @Test func formatAndNameAreRequired() {
        let errors = Load.errors(#"{"devices": [{"id": "A"}]}"#)
        #expect(errors.map(\.path) == ["format", "name"])
        #expect(errors[0].message == "missing required key 'format' in the scenario: add \"format\": \"synclab/1\"")
        #expect(errors[0].description == "t.json:1:1: format: missing required key 'format' in the scenario: add \"format\": \"synclab/1\"")
    }

    @Test func anUnsupportedFormatIsAnError() {
        let found = error(#"{"format": "synclab/2", "name": "x", "devices": [{"id": "A"}]}"#, at: "format")
        #expect(found?.message == "unsupported format \"synclab/2\": expected \"synclab/1\"")
        #expect(found?.position == SourcePosition(line: 1, column: 12))
    }

    @Test func unknownKeysSuggestTheClosestName() {
        let found = error(Load.scenario(#""sead": 3"#), at: "sead")
        #expect(found?.message == "unknown key 'sead' in the scenario; did you mean 'seed'?")
        #expect(found?.position == SourcePosition(line: 2, column: 2))
        let engine = error(Load.scenario(#""engine": {"documents": {"conflcit": "merge"}}"#), at: "engine.documents.conflcit")
        #expect(engine?.message.contains("did you mean 'conflict'?") == true)
    }

    @Test func unknownOpsSuggestTheClosestOp() {
        let found = error(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "kvs.sett", "key": "k", "value": 1}]"#), at: "steps[0].op")
        #expect(found?.message == "unknown op 'kvs.sett'; did you mean 'kvs.set'?")
        #expect(found?.position == SourcePosition(line: 2, column: 46))
    }

    @Test func aBadDurationSaysWhatWasExpected() {
        let found = error(Load.scenario(#""steps": [{"at": "fast", "device": "A", "op": "airplane.on"}]"#), at: "steps[0].at")
        #expect(found?.message == "expected a step time like \"250ms\" or \"1.5s\" (units us, ms, s, m, h, d), got \"fast\"")
    }

    @Test func negativeTimesAndLimitsAreErrors() {
        let text = Load.scenario(#"""
        "steps": [{"at": "-5s", "device": "A", "op": "airplane.on"}],
        "limits": {"kvs": {"keys": -1, "totalBytes": "-1MB"}, "storage": -5}
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[0].at", "limits.kvs.keys", "limits.kvs.totalBytes", "limits.storage"], "\(Load.describe(errors))")
        #expect(errors[0].message.contains("can't be negative"))
        #expect(errors[1].message == "expected a number of keys of at least 0, got -1")
    }

    @Test func lossOutsideZeroToOneIsAnError() {
        let found = error(Load.scenario(#""network": {"loss": 1.5}"#), at: "network.loss")
        #expect(found?.message == "expected a probability between 0 and 1, got 1.5")
    }

    @Test func wrongTypesAreErrors() {
        let text = Load.scenario(#""seed": "seven", "devices2": 1, "end": {"heal": "yes"}, "expect": {"converged": 1}"#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["seed", "devices2", "end.heal", "expect.converged"], "\(Load.describe(errors))")
        #expect(errors[0].message == "expected a non-negative integer below 2^64 for the seed, got \"seven\"")
        #expect(errors[2].message == "expected true or false, got \"yes\"")
    }

    @Test func aSeedMustBeAnIntegerNotADouble() {
        #expect(error(Load.scenario(#""seed": 7.0"#), at: "seed")?.message == "expected a non-negative integer below 2^64 for the seed, got 7.0")
    }

    @Test("a seed takes every unsigned 64-bit value, the whole range --seed takes", arguments: [
        ("0", UInt64(0)), ("9223372036854775807", UInt64(Int64.max)), ("9223372036854775808", UInt64(Int64.max) + 1),
        ("18446744073709551615", UInt64.max), ("0xFFFFFFFFFFFFFFFF", UInt64.max),
    ])
    func seedsUpToTwoToTheSixtyFourMinusOne(text: String, seed: UInt64) throws {
        let file = try #require(Load.file(Load.scenario("\"seed\": \(text)")), "\(Load.describe(Load.errors(Load.scenario("\"seed\": \(text)"))))")
        #expect(file.runs.allSatisfy { $0.seed == seed })
    }

    @Test("a seed outside 0 ..< 2^64 is an error at the path seed, with no suggestion of a double", arguments: [
        "18446744073709551616", "-1", "-9223372036854775809", "100000000000000000000000",
    ])
    func seedsOutsideTheRangeAreErrorsAtTheirPath(text: String) throws {
        let errors = Load.errors(Load.scenario("\"seed\": \(text)"))
        #expect(errors.map(\.path) == ["seed"], "\(Load.describe(errors))")
        #expect(errors.first?.message == "expected a non-negative integer below 2^64 for the seed, got \(text)")
        #expect(errors.first?.message.contains("fraction") == false)
    }

    @Test("an integer beyond 64 bits elsewhere is an error at its own path, not at the root")
    func largeIntegersElsewhereAreErrorsAtTheirPath() {
        let text = Load.scenario(#"""
        "limits": {"kvs": {"keys": 18446744073709551616}, "storage": -18446744073709551616},
        "network": {"loss": 18446744073709551616},
        "steps": [{"at": 99999999999999999999, "device": "A", "op": "airplane.on"},
                  {"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 9223372036854775808}],
        "expect": {"lostUpdates": 18446744073709551616}
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["limits.kvs.keys", "limits.storage", "network.loss", "steps[0].at", "steps[1].value", "expect.lostUpdates"], "\(Load.describe(errors))")
        #expect(errors.allSatisfy { !$0.message.isEmpty && $0.path != "(root)" })
        #expect(errors.first?.message == "expected a number of keys, got 18446744073709551616, which is outside the 64-bit range")
        #expect(errors.first { $0.path == "limits.storage" }?.message == "a storage quota is outside the 64-bit range, got -18446744073709551616")
        #expect(errors.first { $0.path == "steps[1].value" }?.message == "a KVS integer is a 64-bit signed integer, got 9223372036854775808 (write it with a fraction, like 1.0e20, for a double)")
    }

    @Test func unknownDevicesAndAccountsAreErrors() {
        let text = Load.scenario(#"""
        "accounts": ["alice", "bob"],
        "steps": [{"at": "1s", "device": "C", "op": "airplane.on"},
                  {"at": "2s", "device": ["A", "b"], "op": "airplane.on"},
                  {"at": "3s", "device": "A", "op": "account.signIn", "account": "carol"}],
        "expect": {"notifications": [{"device": "Z", "reason": "serverChange"}]}
        """#, devices: #"[{"id": "A", "account": "alice"}, {"id": "B", "account": "bobb"}]"#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["devices[1].account", "steps[0].device", "steps[1].device[1]", "steps[2].account", "expect.notifications[0].device"], "\(Load.describe(errors))")
        #expect(errors[0].message.hasPrefix("unknown account \"bobb\"; did you mean 'bob'?"))
        #expect(errors[2].message.hasPrefix("unknown device \"b\"; did you mean 'A'?") || errors[2].message.hasPrefix("unknown device \"b\"; did you mean 'B'?"))
    }

    @Test func duplicateDeviceIdsAndMissingDevicesAreErrors() {
        let duplicate = error(Load.scenario("", devices: #"[{"id": "A"}, {"id": "A"}]"#), at: "devices[1].id")
        #expect(duplicate?.message == "duplicate device id \"A\" (first declared at devices[0])")
        #expect(error(Load.scenario("", devices: "[]"), at: "devices")?.message == "a scenario needs at least one device")
        #expect(error(#"{"format": "synclab/1", "name": "x"}"#, at: "devices")?.message.hasPrefix("missing required key 'devices'") == true)
        #expect(error(Load.scenario("", devices: #"[{"id": ""}]"#), at: "devices[0].id")?.message == "expected a device id, got an empty string")
    }

    @Test func cloudOpsTakeNoDeviceAndDeviceOpsNeedOne() {
        let text = Load.scenario(#"""
        "steps": [{"at": "1s", "device": "A", "op": "cloud.outage", "for": "10s"},
                  {"at": "2s", "op": "airplane.on"}]
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[0].device", "steps[1].device"], "\(Load.describe(errors))")
        #expect(errors[0].message == "cloud.outage acts on the cloud: remove 'device'")
    }

    @Test func stepsOnACrashedDeviceAreErrors() {
        let text = Load.scenario(#"""
        "steps": [{"at": "10s", "device": "A", "op": "device.crash"},
                  {"at": "20s", "device": "A", "op": "kvs.set", "key": "k", "value": 1},
                  {"at": "30s", "device": "A", "op": "device.restart"},
                  {"at": "40s", "device": "A", "op": "device.restart"},
                  {"at": "5s", "device": "B", "op": "device.crash"},
                  {"at": "6s", "device": "B", "op": "device.crash"}]
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[1].device", "steps[3].device", "steps[5].device"], "\(Load.describe(errors))")
        #expect(errors[0].message == "device \"A\" is crashed at t=20s (device.crash at t=10s): kvs.set needs a device.restart before it")
        #expect(errors[1].message.contains("is not crashed"))
        #expect(errors[2].message.contains("already crashed"))
    }

    @Test func aStepAfterTheDurationIsAnError() {
        let text = Load.scenario(#"""
        "duration": "1m",
        "steps": [{"at": "2m", "device": "A", "op": "airplane.on"},
                  {"at": "50s", "device": "A", "op": "kvs.synchronize", "every": "5s", "times": 4}]
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[0].at", "steps[1].times"], "\(Load.describe(errors))")
        #expect(errors[0].message.hasPrefix("step time 2m is after the scenario's duration 1m"))
        #expect(errors[1].message.hasPrefix("repetition 3"))
    }

    @Test func missingOpArgumentsAndWrongArgumentTypesAreErrors() {
        let text = Load.scenario(#"""
        "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k"},
                  {"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": null},
                  {"at": "1s", "device": "A", "op": "doc.save", "path": "a.txt", "content": 5},
                  {"at": "1s", "device": "A", "op": "record.save", "type": "T", "name": "n", "fields": {"ok": true}},
                  {"at": "1s", "device": "A", "op": "record.save", "type": "T", "name": "n", "fields": {"l": [1, "x"]}},
                  {"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1, "colour": "red"}]
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[0].value", "steps[1].value", "steps[2].content", "steps[3].fields.ok", "steps[4].fields.l[1]", "steps[5].colour"], "\(Load.describe(errors))")
        #expect(errors[1].message.hasPrefix("null is not a KVS value"))
        #expect(errors[5].message.hasPrefix("unknown key 'colour' in a kvs.set step"))
    }

    @Test func everyErrorOfAFileIsReportedInFileOrder() {
        let text = """
        {
          "format": "synclab/1", "name": "x",
          "seed": -1,
          "network": {"latency": {"dist": "gaussian", "mean": "1ms"}},
          "devices": [{"id": "A", "clock": {"offset": "soon"}}],
          "steps": [{"at": "1s", "device": "A", "op": "nope"}],
          "variants": [{"name": "base"}, {"name": "v", "engine": {"records": {"conflict": "mine"}}}]
        }
        """
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["seed", "network.latency.dist", "devices[0].clock.offset", "steps[0].op", "variants[0].name", "variants[1].engine.records.conflict"], "\(Load.describe(errors))")
        let lines = errors.compactMap { $0.position?.line }
        #expect(lines == lines.sorted())
        #expect(errors[5].description.hasPrefix("t.json:7:"))
    }

    @Test func variantNamesAreUniqueAndNotBase() {
        let text = Load.scenario(#""variants": [{"name": "a"}, {"name": "a"}, {"name": "base"}, {"nom": "x"}]"#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["variants[1].name", "variants[2].name", "variants[3].name", "variants[3].nom"], "\(Load.describe(errors))")
        // The missing key is reported at the variant's '{', which comes before its unknown key.
        #expect(errors[2].message.hasPrefix("missing required key 'name'"))
        #expect(errors[3].message == "unknown key 'nom' in a variant; did you mean 'name'?")
    }

    @Test func aVariantNameMayHoldASlashOrStartWithADot() throws {
        // SPEC §5 asks only that variant names are unique and not `base`; the report folder is
        // made safe from the name (`VariantPaths`), so `merge / keepBoth` is a fine name.
        let text = Load.scenario(#""variants": [{"name": "merge / keepBoth"}, {"name": ".hidden"}, {"name": ".."}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        #expect(file.runs.map(\.variant) == ["base", "merge / keepBoth", ".hidden", ".."])
    }

    @Test func anAccountCannotBeCalledPublic() {
        // `public` is the public database's account in results (SPEC §7); an account of that
        // name wrote two `public` keys into `final`, and its reports could not be read back.
        let errors = Load.errors(Load.scenario(#""accounts": ["main", "public"]"#))
        #expect(errors.map(\.path) == ["accounts[1]"], "\(Load.describe(errors))")
        #expect(errors.first?.message.contains("public database") == true)
    }

    @Test func assertAndFinalNameOnlyItemsAnOpCouldWrite() {
        // A document path no `doc.*` step accepts, or an empty KVS key, can never be written:
        // `null` for it always held, so a typo such as a leading "/" passed silently.
        let text = Load.scenario(#"""
        "steps": [{"at": "1s", "device": "A", "op": "assert", "documents": {"/notes.txt": null, "a//b": null}, "kvs": {"": null}}],
        "expect": {"final": {"documents": {"a/../b": "x", "ok/n.txt": null}, "kvs": {"": 1}}}
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["steps[0].documents[\"/notes.txt\"]", "steps[0].documents[\"a//b\"]", "steps[0].kvs[\"\"]",
                                       "expect.final.documents[\"a/../b\"]", "expect.final.kvs[\"\"]"], "\(Load.describe(errors))")
    }

    @Test func expectationsAreValidated() {
        let text = Load.scenario(#"""
        "expect": {"lostUpdates": -1, "conflicts": {"min": 3, "max": 1}, "anomalies": [{"kind": "lostUpdat"}],
                   "noAnomalies": ["divergence", "bogus"], "final": {"records": {"noslash": null}}, "setled": true}
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["expect.lostUpdates", "expect.conflicts", "expect.anomalies[0].kind", "expect.noAnomalies[1]", "expect.final.records.noslash", "expect.setled"], "\(Load.describe(errors))")
        #expect(errors[2].message.contains("did you mean 'lostUpdate'?"))
        #expect(errors[5].message.contains("did you mean 'settled'?"))
    }

    @Test func jsonPathsQuoteKeysThatAreNotPlainNames() {
        let found = error(Load.scenario(#""expect": {"final": {"records": {"Notes/n1": {"when": {"$date": "yesterday"}}}}}"#), at: #"expect.final.records["Notes/n1"].when.$date"#)
        #expect(found?.message.hasPrefix("expected an ISO 8601 date") == true)
    }

    @Test func latencyDistributionsAreChecked() {
        let text = Load.scenario(#"""
        "network": {"latency": {"dist": "uniform", "min": "200ms", "max": "100ms"},
                    "pushLatency": {"dist": "lognormal", "median": "50ms"}}
        """#)
        let errors = Load.errors(text)
        #expect(errors.map(\.path) == ["network.latency.max", "network.pushLatency.sigma"], "\(Load.describe(errors))")
    }

    /// One atomic call names each record once: a record saved twice (its fields were merged
    /// silently) or both saved and deleted (the delete silently removed the save) is an error.
    @Test func anAtomicCallNamesEachRecordOnce() {
        let text = Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "r", "fields": {"a": 1}}, {"type": "T", "name": "r", "fields": {"b": 2}}, {"type": "T", "name": "s", "fields": {}}], "delete": ["s", "q", "q"]}]"#)
        #expect(error(text, at: "steps[0].records[1].name")?.message == #"record "r" is saved twice in one records.saveAtomic (first at records[0]): give all its fields in one entry"#)
        #expect(error(text, at: "steps[0].delete[0]")?.message == #"record "s" is both saved (records[2]) and deleted in one records.saveAtomic, which CloudKit refuses: save and delete it in separate steps"#)
        #expect(error(text, at: "steps[0].delete[2]")?.message == #"record "q" is deleted twice in one records.saveAtomic (first at delete[1])"#)
        #expect(Load.errors(text).count == 3)
        // Different records, or the same name in two calls, are fine.
        #expect(Load.errors(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "r", "fields": {"a": 1}}], "delete": ["s"]}, {"at": "2s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "s", "fields": {}}], "delete": ["r"]}]"#)).isEmpty)
    }

    /// A result.json named where a scenario is expected (`synclab validate Reports/x/`) is one
    /// error that says what it is: it was a missing key for each scenario key and an unknown
    /// key for each of the RESULT's.
    @Test func aRunsResultIsOneError() {
        let text = #"{"scenario": "t", "file": "Scenarios/t.json", "variant": "base", "seed": 1, "passed": true, "traceDigest": "fnv1a64:0000000000000000", "events": 3}"#
        let errors = Load.errors(text)
        #expect(errors.map(\.message) == ["this is a run's result (a result.json that synclab run wrote for Scenarios/t.json), not a scenario: name the scenario file itself"])
        #expect(errors.map(\.path) == ["(root)"])
    }

    /// A duplicate key is an error (SPEC §5) after placeholders expand too: `{"${device}": 1,
    /// "A": 2}` on device A kept the last value silently (a setMany of "A" twice, a dictionary
    /// value that lost B's key on A only).
    @Test func keysThatAnExpansionMakesEqualAreAnError() {
        let text = Load.scenario(#""steps": [{"at": "1s", "device": "*", "op": "kvs.setMany", "values": {"${device}": 1, "A": 2}}, {"at": "2s", "every": "1s", "times": 2, "device": "B", "op": "kvs.set", "key": "k", "value": [{"n${i}": 1, "n1": 2}]}, {"at": "3s", "device": "*", "op": "kvs.setMany", "values": {"${device}.x": 1, "y": 2}}]"#)
        #expect(error(text, at: "steps[0].values.A")?.message == #"key "A" appears twice in this object once its placeholders are expanded (on device A): a duplicate key is an error"#)
        #expect(error(text, at: "steps[1].value[0].n1")?.message == #"key "n1" appears twice in this object once its placeholders are expanded (${i}=1): a duplicate key is an error"#)
        #expect(Load.errors(text).count == 2)
    }

    /// `${device}` in a cloud op (which runs on no device) stayed in the value as written
    /// (`cloud.throttle` of zone "Z${device}"); `${i}` still expands there.
    @Test func aCloudOpHasNoDevicePlaceholder() {
        let text = Load.scenario(#""steps": [{"at": "1s", "op": "cloud.throttle", "for": "10s", "retryAfter": "1s", "zone": "Z${device}"}, {"at": "1s", "every": "1m", "times": 2, "op": "cloud.throttle", "for": "10s", "retryAfter": "1s", "zone": "Z${i}"}]"#)
        #expect(Load.errors(text).map(\.message) == ["${device} stands for nothing in cloud.throttle: a cloud op runs on no device (only ${i}, the repetition, is expanded)"])
        #expect(Load.errors(text).map(\.path) == ["steps[0].zone"])
    }
}
