import Testing
@testable import SyncLabScenario

/// A new user's first attempts get errors that show the shape that was expected, not only what
/// was wrong. Each test is a mistake made while writing a first scenario from the docs.
@Suite("Errors show the expected shape")
struct ShapeHintTests {
    /// The messages of the errors at `path`.
    private func messages(_ text: String, at path: String) -> [String] {
        Load.errors(text).filter { $0.path == path }.map(\.message)
    }

    @Test func devicesWrittenAsNamesShowTheDeviceObject() {
        let text = #"{"format": "synclab/1", "name": "t", "devices": ["iphone", 3], "steps": [{"at": "1s", "device": "iphone", "op": "airplane.on"}]}"#
        #expect(messages(text, at: "devices[0]") == [#"expected a device object such as {"id": "A"}, got "iphone" (write {"id": "iphone"})"#])
        #expect(messages(text, at: "devices[1]") == [#"expected a device object such as {"id": "A"}, got 3"#])
        // The name stays known, so the step naming it is not a second, misleading error.
        #expect(messages(text, at: "steps[0].device").isEmpty)
        #expect(Load.errors(text).count == 2)
    }

    /// 1e400 reads as infinity: the message says why a number so written is refused.
    @Test func aKVSNumberPastADoubleSaysTheRange() {
        let text = Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1e400}]"#)
        #expect(messages(text, at: "steps[0].value") == ["a KVS value must be a finite number (a double holds at most about ±1.8e308), got Infinity"])
    }

    @Test func aMissingFormatSaysWhatToAdd() {
        let errors = Load.errors(#"{"name": "t", "devices": [{"id": "A"}]}"#)
        #expect(errors.map(\.message) == [#"missing required key 'format' in the scenario: add "format": "synclab/1""#])
    }

    @Test func anOpWrittenAsAKeyValuePairListsTheOpNames() {
        let on = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "airplane", "on": true}]"#), at: "steps[0].op")
        #expect(on == [#"unknown op 'airplane': ops are dotted names, one of "airplane.on", "airplane.off" (here "op": "airplane.on")"#])
        let off = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "airplane", "mode": "off"}]"#), at: "steps[0].op")
        #expect(off.first?.hasSuffix(#"(here "op": "airplane.off")"#) == true)
        let family = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "kvs"}]"#), at: "steps[0].op")
        #expect(family.first?.contains(#""kvs.set", "kvs.setMany", "kvs.remove", "kvs.increment", "kvs.synchronize""#) == true)
        // Only the op is reported: its keys are judged once the op is known.
        #expect(Load.errors(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "airplane", "on": true}]"#)).count == 1)
    }

    @Test func anOpWrittenAsItsLastWordOffersTheOpsEndingWithIt() {
        let set = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "increment", "key": "k"}]"#), at: "steps[0].op")
        #expect(set == [#"unknown op 'increment'; did you mean "kvs.increment"?"#])
        let save = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "save"}]"#), at: "steps[0].op")
        #expect(save == [#"unknown op 'save'; did you mean one of "doc.save", "record.save"?"#])
        let nothing = messages(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "frobnicate"}]"#), at: "steps[0].op")
        #expect(nothing == ["unknown op 'frobnicate' (docs/SCENARIOS.md lists every op)"])
    }

    @Test func aStepMissingArgumentsShowsTheOpsExampleOnce() {
        let errors = Load.errors(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "kvs.set"}]"#))
        #expect(errors.map(\.message) == [
            #"missing required key 'key' for op kvs.set (a kvs.set step looks like {"at": "1s", "device": "A", "op": "kvs.set", "key": "theme", "value": "dark"})"#,
            "missing required key 'value' for op kvs.set",
        ])
    }

    /// "an account.signIn step", not "a account.signIn step" (the article used to be fixed).
    @Test func anOpStartingWithAVowelTakesAn() {
        let errors = Load.errors(Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "account.signIn", "acount": "main"}]"#))
        #expect(errors.map(\.message).contains { $0.hasPrefix("unknown key 'acount' in an account.signIn step") }, "\(Load.describe(errors))")
        #expect(errors.map(\.message).contains { $0.contains("(an account.signIn step looks like {") }, "\(Load.describe(errors))")
    }

    @Test func stepKeysUsersWriteForAnotherGetTheRightOne() {
        let text = Load.scenario(#"""
        "steps": [{"time": "1s", "device": "A", "op": "kvs.synchronize"},
                  {"at": "1s", "devices": ["A"], "op": "kvs.synchronize"},
                  {"at": "1s", "device": "A", "op": "doc.save", "path": "a.txt", "text": "hi"},
                  {"at": "1s", "device": "A", "op": "record.save", "type": "Todo", "name": "t1", "fields": {}, "title": "x"},
                  {"at": "1s", "device": "A", "op": "record.save", "recordType": "Todo", "name": "t1", "fields": {}}]
        """#)
        #expect(messages(text, at: "steps[0].time") == [#"unknown key 'time' in a kvs.synchronize step; a step's time is 'at', like "at": "10s""#])
        #expect(messages(text, at: "steps[1].devices").first?.hasPrefix("unknown key 'devices' in a kvs.synchronize step; did you mean 'device'?") == true)
        #expect(messages(text, at: "steps[2].text") == ["unknown key 'text' in a doc.save step; 'text' is an argument of doc.append (doc.save takes path, content)"])
        #expect(messages(text, at: "steps[3].title") == [#"unknown key 'title' in a record.save step; a record's fields go under 'fields', like "fields": {"title": …}"#])
        #expect(messages(text, at: "steps[4].recordType") == ["unknown key 'recordType' in a record.save step; did you mean 'type'?"])
    }

    /// An argument of a sibling op given to an op that takes none (spec27): the hint said
    /// "(account.signOut takes )".
    @Test func aSiblingsArgumentOnAnOpWithoutArgumentsSaysItTakesNone() {
        let text = Load.scenario(#"""
        "steps": [{"at": "1s", "device": "A", "op": "account.signOut", "account": "main"},
                  {"at": "2s", "op": "cloud.expireTokens", "zone": "Z"}]
        """#)
        #expect(messages(text, at: "steps[0].account") == ["unknown key 'account' in an account.signOut step; 'account' is an argument of account.signIn (account.signOut takes no arguments)"])
        #expect(messages(text, at: "steps[1].zone") == ["unknown key 'zone' in a cloud.expireTokens step; 'zone' is an argument of cloud.throttle (cloud.expireTokens takes no arguments)"])
    }

    @Test func settingsWrittenOneLevelTooHighSayWhereTheyGo() {
        let text = Load.scenario(#""engine": {"conflict": "merge", "records": "clientWins"}, "limits": {"keys": 10, "batch": 5}"#)
        #expect(messages(text, at: "engine.conflict") == [#"unknown key 'conflict' in engine settings; 'conflict' belongs to a store: {"documents": {"conflict": …}} or {"records": {"conflict": …}}"#])
        #expect(messages(text, at: "engine.records") == [#"expected record engine settings as an object such as {"conflict": "clientWins"}, got "clientWins""#])
        #expect(messages(text, at: "limits.keys") == [#"unknown key 'keys' in limits; 'keys' is a KVS limit: {"kvs": {"keys": …}}"#])
        #expect(messages(text, at: "limits.batch") == [#"unknown key 'batch' in limits; 'batch' is a record limit: {"records": {"batch": …}}"#])
    }

    @Test func finalStateWithoutItsStoreIsOneErrorShowingTheStore() {
        let errors = Load.errors(Load.scenario(#""expect": {"final": {"theme": "dark"}}"#))
        #expect(errors.map(\.message) == [#"unknown key 'theme' in final state; items are listed by store, like {"kvs": {"theme": …}}, {"documents": {…}} or {"records": {"ZONE/NAME": {…}}}"#])
    }

    @Test func anAnomalyKindWhereAPatternGoesShowsThePattern() {
        let text = Load.scenario(#""expect": {"anomalies": ["lostUpdate"], "noAnomalies": ["divergence"]}"#)
        #expect(Load.errors(text).map(\.message) == [#"expected an anomaly pattern object such as {"kind": "lostUpdate"}, got "lostUpdate" (only noAnomalies takes bare kind names)"#])
    }

    /// noAnomalies takes kind names and patterns: a value of neither says both (it offered only the pattern).
    @Test func aNumberInNoAnomaliesShowsBothForms() {
        let text = Load.scenario(#""expect": {"noAnomalies": [5]}"#)
        #expect(Load.errors(text).map(\.message) == [#"expected an anomaly kind such as "lostUpdate" or a pattern such as {"kind": "lostUpdate"}, got 5"#])
    }

    /// The devices written without their list, or a device's id written `name`: the id stays
    /// known, so each step naming it is not a second error ("unknown device "A" (devices: )").
    @Test func aDeviceOutsideItsListKeepsItsID() {
        for devices in [#"{"id": "A"}"#, #""A""#] {
            let text = #"{"format": "synclab/1", "name": "t", "devices": \#(devices), "steps": [{"at": "1s", "device": "A", "op": "airplane.on"}, {"at": "2s", "device": "Q", "op": "airplane.off"}]}"#
            #expect(messages(text, at: "devices") == [#"expected a list of devices like [{"id": "A"}], got \#(devices.hasPrefix("{") ? "an object" : #""A""#) (write [{"id": "A"}], the list around the device)"#])
            #expect(messages(text, at: "steps[0].device").isEmpty)
            #expect(messages(text, at: "steps[1].device") == [#"unknown device "Q"; did you mean 'A'? (devices: A)"#])
        }
        let named = Load.scenario(#""steps": [{"at": "1s", "device": "B", "op": "airplane.on"}], "expect": {"notifications": [{"device": "B", "reason": "fetched"}]}"#, devices: #"[{"id": "A"}, {"name": "B"}]"#)
        #expect(Load.errors(named).map(\.path) == ["devices[1].name", "devices[1].id"] || Load.errors(named).map(\.path) == ["devices[1].id", "devices[1].name"], "\(Load.errors(named).map(\.message))")
    }

    /// Accounts written as one name or as an object of names: the names stay known, so the
    /// devices and steps naming them are not each a second error ("unknown account").
    @Test func accountsOutsideTheirListKeepTheirNames() {
        for (accounts, got, write) in [(#""bob""#, #""bob""#, #"["bob"]"#), (#"{"alice": {}, "bob": {}}"#, "an object", #"["alice", "bob"]"#)] {
            let text = #"{"format": "synclab/1", "name": "t", "accounts": \#(accounts), "devices": [{"id": "A", "account": "bob"}], "steps": [{"at": "1s", "device": "A", "op": "account.signIn", "account": "bob"}]}"#
            #expect(Load.errors(text).map(\.message) == [#"expected a list of account names like ["alice", "bob"], got \#(got) (write \#(write))"#])
        }
    }

    /// Settings written on a device that a device takes elsewhere say where: `engine` was
    /// answered "did you mean 'online'?", `latency` and `limits` with the list of device keys.
    @Test func aDeviceKeyThatBelongsElsewhereSaysWhere() {
        let text = Load.scenario("", devices: #"[{"id": "A", "engine": {"documents": {"conflict": "merge"}}, "latency": "10ms", "offset": "2s", "limits": {}, "onlin": true}]"#)
        #expect(messages(text, at: "devices[0].engine") == [#"unknown key 'engine' in a device; a device chooses its own policies under 'apps', like "apps": {"documents": "merge", "records": "serverWins"} (engine settings are the scenario's or a variant's)"#])
        #expect(messages(text, at: "devices[0].latency") == [#"unknown key 'latency' in a device; a device's link goes under 'network', like "network": {"latency": …}"#])
        #expect(messages(text, at: "devices[0].offset") == [#"unknown key 'offset' in a device; a device's clock goes under 'clock', like "clock": {"offset": …}"#])
        #expect(messages(text, at: "devices[0].limits") == [#"unknown key 'limits' in a device; limits are the account's and the cloud's: set them in the scenario's (or a variant's) 'limits'"#])
        #expect(messages(text, at: "devices[0].onlin") == [#"unknown key 'onlin' in a device; did you mean 'online'?"#])
    }

    /// A setting written outside its section says which section takes it (it was "unknown key
    /// 'latency' in the scenario" with no hint); a variant's key only the scenario has says so;
    /// a truncated key is offered the key it begins (`val` was offered 'at').
    @Test func aSettingOutsideItsSectionSaysWhere() {
        let text = Load.scenario(#""latency": "10ms", "settle": "1h", "conflict": "merge", "keys": 5, "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "val": 1, "repeat": 3}], "variants": [{"name": "v", "loss": 0.1, "steps": [], "heal": false}]"#)
        #expect(messages(text, at: "latency") == [#"unknown key 'latency' in the scenario; a link setting goes under 'network', like "network": {"latency": …}"#])
        #expect(messages(text, at: "settle") == [#"unknown key 'settle' in the scenario; it goes under 'end', like "end": {"settle": …}"#])
        #expect(messages(text, at: "conflict") == [#"unknown key 'conflict' in the scenario; it goes under 'engine', like "engine": {"documents": {"conflict": …}} or "engine": {"records": {"conflict": …}}"#])
        #expect(messages(text, at: "keys") == [#"unknown key 'keys' in the scenario; it goes under 'limits', like "limits": {"kvs": {"keys": …}}"#])
        #expect(messages(text, at: "steps[0].val") == [#"unknown key 'val' in a kvs.set step; did you mean 'value'?"#])
        #expect(messages(text, at: "steps[0].repeat") == [#"unknown key 'repeat' in a kvs.set step; a step repeats with 'every' and 'times', like "every": "10s", "times": 3"#])
        #expect(messages(text, at: "variants[0].loss") == [#"unknown key 'loss' in a variant; a link setting goes under 'network', like "network": {"loss": …}"#])
        #expect(messages(text, at: "variants[0].steps") == [#"unknown key 'steps' in a variant; 'steps' is the scenario's, the same in every variant: a variant changes only engine, apps, network, limits and expect"#])
        #expect(messages(text, at: "variants[0].heal") == [#"unknown key 'heal' in a variant; 'end' is the scenario's, the same in every variant"#])
    }

    /// Items written one level too high in `expect`, or beside an assert's store sections, and
    /// a lone kind or notification where a list is needed, show where they go.
    @Test func expectationsAndAssertsShowWhereItemsGo() {
        let text = Load.scenario(#""steps": [{"at": "1s", "device": "A", "op": "assert", "theme": "dark"}], "expect": {"kvs": {"k": 1}, "anomalies": "lostUpdate", "noAnomalies": "divergence", "notifications": {"device": "A", "reason": "serverChange"}}"#)
        #expect(messages(text, at: "steps[0].theme") == [#"unknown key 'theme' in an assert step; the items an assert checks go under their store, like "kvs": {"theme": …} (or "documents", "records")"#])
        #expect(messages(text, at: "expect.kvs") == [#"unknown key 'kvs' in expectations; the cloud's final items go under 'final', like "final": {"kvs": …}"#])
        #expect(messages(text, at: "expect.anomalies") == [#"expected a list of anomaly patterns ({"kind": …}), got "lostUpdate" (write [{"kind": "lostUpdate"}])"#])
        #expect(messages(text, at: "expect.noAnomalies") == [#"expected a list of anomaly patterns ({"kind": …} or kind names), got "divergence" (write ["divergence"])"#])
        #expect(messages(text, at: "expect.notifications") == [#"expected a list of {"device", "reason", "min"?, "max"?}, got an object (write [ … ] around it)"#])
    }

    @Test func aClockOrDeviceWrittenFlatShowsItsObject() {
        let text = Load.scenario("", devices: #"[{"id": "A", "clock": "-2s"}, {"name": "B"}]"#)
        #expect(messages(text, at: "devices[0].clock") == [#"expected a clock object such as {"offset": "-2s"}, got "-2s""#])
        #expect(messages(text, at: "devices[1].name") == [#"unknown key 'name' in a device; a device's name is its 'id', like {"id": "iPhone"}"#])
    }

    @Test func sectionsThatAreNotObjectsShowAnExample() {
        let text = Load.scenario(#""end": "1h", "steps": {"0s": "airplane.on"}, "variants": [["merge"]]"#)
        #expect(messages(text, at: "end") == [#"expected end settings as an object such as {"heal": true, "settle": "1h"}, got "1h""#])
        #expect(messages(text, at: "steps").first?.hasPrefix(#"expected a list of steps such as [{"at": "10s", "device": "A", "op": "kvs.set""#) == true)
        #expect(messages(text, at: "variants[0]").first?.hasPrefix(#"expected a variant object such as {"name": "merge""#) == true)
        let latency = messages(Load.scenario(#""network": {"latency": {"uniform": ["20ms", "120ms"]}}"#), at: "network.latency.dist")
        #expect(latency.first?.hasSuffix(#"such as {"dist": "uniform", "min": "20ms", "max": "120ms"}"#) == true)
    }

    @Test func moreFirstAttemptSlipsNameTheRightKey() {
        let text = Load.scenario(#"""
        "steps": [{"at": "1m30s", "device": "all", "op": "zone.create", "name": "Todos"},
                  {"at": "1s", "op": "cloud.outage", "duration": "1m"},
                  {"at": "1s", "device": "A", "op": "network.set", "network": {"loss": 0.5}},
                  {"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": {"t1": {}}}],
        "expect": {"anomalies": [{"type": "lostUpdate"}]}
        """#)
        #expect(messages(text, at: "steps[0].at") == [#"expected a step time like "250ms" or "1.5s" (units us, ms, s, m, h, d), got "1m30s" (one unit per duration: write "90s")"#])
        #expect(messages(text, at: "steps[0].device") == [#"unknown device "all"; every device is "*" (devices: A, B)"#])
        #expect(messages(text, at: "steps[0].name") == [#"unknown key 'name' in a zone.create step; the zone's name is 'zone', like "zone": "Todos""#])
        #expect(messages(text, at: "steps[1].duration") == [#"unknown key 'duration' in a cloud.outage step; how long is 'for', like "for": "2m""#])
        #expect(messages(text, at: "steps[2].network").first?.hasPrefix("unknown key 'network' in a network.set step; network.set takes the link settings directly") == true)
        #expect(messages(text, at: "steps[3].records").first?.hasPrefix(#"expected a list of records such as [{"type": "Todo""#) == true)
        #expect(messages(text, at: "expect.anomalies[0].type") == ["unknown key 'type' in an anomaly pattern; did you mean 'kind'?"])
    }

    @Test func aCompoundDurationIsAddedUpInTheLargestWholeUnit() {
        #expect(ScenarioReader.compoundDuration("1m30s") == "90s")
        #expect(ScenarioReader.compoundDuration("1h 30m") == "5400s")
        #expect(ScenarioReader.compoundDuration("1s500ms") == "1500ms")
        #expect(ScenarioReader.compoundDuration("90s") == nil)
        #expect(ScenarioReader.compoundDuration("10 sec") == nil)
        #expect(ScenarioReader.compoundDuration("1e3s") == nil)
    }

    /// Every example an error shows is itself valid.
    @Test func everyOpExampleAnErrorShowsValidates() {
        for (op, step) in ShapeExample.ops {
            let before = op == "device.restart" ? #"{"at": "0s", "device": "A", "op": "device.crash"}, "# : ""
            let text = Load.scenario(#""accounts": ["main"], "steps": [\#(before)\#(step)]"#)
            #expect(Load.errors(text).isEmpty, "\(op): \(Load.describe(Load.errors(text)))")
        }
        #expect(Set(ShapeExample.ops.map(\.op)) == Set(StepResolver.ops.map(\.name)))
        #expect(Load.errors(Load.scenario(#""network": \#(ShapeExample.link), "engine": \#(ShapeExample.engine), "limits": \#(ShapeExample.limits), "end": \#(ShapeExample.end), "expect": \#(ShapeExample.expect), "variants": [\#(ShapeExample.variant)], "steps": \#(ShapeExample.steps)"#, devices: #"[{"id": "A", "clock": \#(ShapeExample.clock)}, {"id": "B"}]"#)).isEmpty)
        #expect(Load.errors(Load.scenario(#""network": {"latency": \#(ShapeExample.latency)}, "expect": {"final": \#(ShapeExample.itemValues), "anomalies": [\#(ShapeExample.anomalyPattern())], "notifications": [\#(ShapeExample.notification)]}, "steps": [{"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Todos", "records": [\#(ShapeExample.atomicRecord)]}]"#)).isEmpty)
    }
}
