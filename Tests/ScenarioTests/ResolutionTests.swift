import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol
import Testing
@testable import SyncLabScenario

@Suite("Scenario resolution: variants, steps, values")
struct ResolutionTests {
    @Test func variantsDeepMergeEngineNetworkAndLimitsOverTheBase() throws {
        let text = Load.scenario(#"""
        "engine": {"documents": {"conflict": "keepBoth", "winner": "arrival"}, "kvs": {"uploadDelay": "2s"}},
        "network": {"loss": 0.1, "bandwidth": "10Mbps", "latency": "30ms"},
        "limits": {"kvs": {"keys": 10, "totalBytes": "1KB"}, "storage": "1MB"},
        "expect": {"converged": true, "lostUpdates": 0},
        "variants": [
          {"name": "v1", "description": "other", "engine": {"documents": {"conflict": "merge"}},
           "network": {"loss": 0.5}, "limits": {"kvs": {"keys": 20}}},
          {"name": "v2", "expect": {"conflicts": {"max": 2}}}
        ]
        """#, devices: #"[{"id": "A", "network": {"latency": "5ms"}}, {"id": "B", "online": false}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        #expect(file.runs.map(\.variant) == ["base", "v1", "v2"])
        let base = file.runs[0], v1 = file.runs[1], v2 = file.runs[2]
        #expect(v1.engine.documents.conflict == .merge)
        #expect(v1.engine.documents.winner == .arrival)
        #expect(v1.engine.kvs.uploadDelay == .seconds(2))
        #expect(v1.network.loss == 0.5)
        #expect(v1.network.bandwidthBitsPerSecond == 10_000_000)
        #expect(v1.network.latency == .fixed(.milliseconds(30)))
        #expect(v1.limits.kvs.keys == 20)
        #expect(v1.limits.kvs.totalBytes == 1024)
        #expect(v1.limits.storageBytes == 1_048_576)
        #expect(v1.description == "other")
        // Device overrides apply on top of each run's network.
        #expect(v1.devices[0].link.latency == .fixed(.milliseconds(5)))
        #expect(v1.devices[0].link.loss == 0.5)
        #expect(base.devices[0].link.loss == 0.1)
        #expect(base.devices[1].link.latency == .fixed(.milliseconds(30)))
        #expect(base.devices[1].online == false)
        // expect: inherited when not given, replaced whole when given.
        #expect(v1.expect.converged == true)
        #expect(v1.expect.lostUpdates == .exactly(0))
        #expect(v2.expect.converged == nil)
        #expect(v2.expect.lostUpdates == nil)
        #expect(v2.expect.conflicts == CountExpectation(min: nil, max: 2))
        #expect(v2.engine == base.engine)
    }

    @Test func everyAndTimesRepeatAStepWithIndexExpansion() throws {
        let text = Load.scenario(#"""
        "steps": [{"at": "10s", "device": "A", "op": "kvs.set", "key": "k${i}", "value": "v${i}", "every": "5s", "times": 3}]
        """#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let steps = file.runs[0].steps
        #expect(steps.map(\.at.microseconds) == [10_000_000, 15_000_000, 20_000_000])
        #expect(steps.map(\.source) == ["steps[0]#0", "steps[0]#1", "steps[0]#2"])
        let keys = steps.map { step -> String in
            guard case .kvsSet(let entries, _) = step.op else { return "?" }
            guard case .string(let value) = entries[0].value else { return "?" }
            return entries[0].key + "=" + value
        }
        #expect(keys == ["k0=v0", "k1=v1", "k2=v2"])
    }

    @Test func deviceExpansionGivesEachDeviceItsOwnStep() throws {
        let text = Load.scenario(#"""
        "steps": [{"at": "1s", "device": "*", "op": "doc.save", "path": "${device}.txt", "content": "from ${device} #${i}"},
                  {"at": "2s", "device": "*", "op": "airplane.on"},
                  {"at": "3s", "device": ["B", "A"], "op": "kvs.set", "key": "${device}", "value": 1}]
        """#, devices: #"[{"id": "A"}, {"id": "B"}, {"id": "C"}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let steps = file.runs[0].steps
        #expect(steps.map(\.devices) == [[0], [1], [2], [0, 1, 2], [1], [0]])
        let paths = steps.prefix(3).map { step -> String in
            guard case .docSave(let path, .text(let content)) = step.op else { return "?" }
            return path + ":" + content
        }
        #expect(paths == ["A.txt:from A #0", "B.txt:from B #0", "C.txt:from C #0"])
        guard case .kvsSet(let entries, _) = steps[4].op else { Issue.record("not kvs.set"); return }
        #expect(entries[0].key == "B")
    }

    @Test func stepsSortByTimeThenFileOrderAndRepetitionsKeepTheirOrder() throws {
        let text = Load.scenario(#"""
        "steps": [{"at": "20s", "device": "A", "op": "kvs.set", "key": "late", "value": 1},
                  {"at": "10s", "device": "A", "op": "kvs.set", "key": "r${i}", "value": 1, "every": "5s", "times": 3},
                  {"at": "10s", "device": "B", "op": "kvs.set", "key": "tie", "value": 1},
                  {"at": "0s", "device": "B", "op": "kvs.synchronize"}]
        """#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let order = file.runs[0].steps.map { step -> String in
            if case .kvsSet(let entries, _) = step.op { return entries[0].key }
            return step.op.name
        }
        #expect(order == ["kvs.synchronize", "r0", "tie", "r1", "late", "r2"])
        #expect(file.runs[0].steps.map(\.fileIndex) == [3, 1, 2, 1, 0, 1])
    }

    @Test func everyOpOfTheThreeServicesParses() throws {
        let text = Load.scenario(#"""
        "accounts": ["alice", "bob"],
        "steps": [
          {"at": "1s", "device": "A", "op": "airplane.on"},
          {"at": "1s", "device": "A", "op": "airplane.off"},
          {"at": "1s", "device": "A", "op": "network.set", "latency": {"dist": "normal", "mean": "10ms", "stddev": "2ms"}, "loss": 0.2, "bandwidth": "1Mbps", "pushLatency": {"dist": "pareto", "scale": "5ms", "shape": 2}, "pushLoss": 0, "reorder": true, "timeout": "10s"},
          {"at": "1s", "device": "A", "op": "app.foreground"},
          {"at": "1s", "op": "cloud.clock.set", "offset": "+5m"},
          {"at": "1s", "device": "A", "op": "clock.set", "offset": "-30s"},
          {"at": "1s", "device": "A", "op": "clock.jump", "by": "1h"},
          {"at": "1s", "device": "A", "op": "app.delete"},
          {"at": "1s", "device": "A", "op": "app.install"},
          {"at": "1s", "device": "A", "op": "account.signOut"},
          {"at": "1s", "device": "A", "op": "account.signIn", "account": "bob"},
          {"at": "1s", "op": "cloud.outage", "for": "1m"},
          {"at": "1s", "op": "cloud.throttle", "for": "1m", "retryAfter": "20s"},
          {"at": "1s", "op": "cloud.expireTokens"},
          {"at": "1s", "device": "A", "op": "kvs.set", "key": "d", "value": {"b": [1, 2.5, true], "a": {"$data": "AAE="}, "c": {"$date": "2026-01-31T12:00:00Z"}}},
          {"at": "1s", "device": "A", "op": "kvs.setMany", "values": {"z": 1, "a": "x"}},
          {"at": "1s", "device": "A", "op": "kvs.remove", "key": "z"},
          {"at": "1s", "device": "A", "op": "kvs.increment", "key": "n"},
          {"at": "1s", "device": "A", "op": "kvs.synchronize"},
          {"at": "1s", "device": "A", "op": "doc.save", "path": "big.bin", "content": {"$size": "3MB"}},
          {"at": "1s", "device": "A", "op": "doc.append", "path": "a.txt", "text": "more"},
          {"at": "1s", "device": "A", "op": "doc.delete", "path": "a.txt"},
          {"at": "1s", "device": "A", "op": "zone.create", "zone": "Z"},
          {"at": "1s", "device": "A", "op": "zone.delete", "zone": "Z", "byUser": true, "database": "private"},
          {"at": "1s", "device": "A", "op": "record.save", "type": "Note", "name": "n", "database": "public",
           "fields": {"s": "x", "i": 3, "d": 1.5, "b": {"$data": "AAE="}, "t": {"$date": "2026-01-31"}, "loc": {"lat": 1.5, "lon": -2},
                      "r": {"$ref": "m", "action": "deleteSelf"}, "a": {"$asset": "1MB"}, "l": [1, 2], "gone": null}},
          {"at": "1s", "device": "A", "op": "record.delete", "zone": "Z", "name": "n"},
          {"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "T", "name": "a", "fields": {}}], "delete": ["b"]},
          {"at": "1s", "device": "A", "op": "subscription.create", "database": "public"},
          {"at": "1s", "device": "A", "op": "assert", "kvs": {"k": 1, "gone": null}, "documents": {"a.txt": "x", "b": null, "c": {"$size": 10}}, "records": {"Z/n": {"s": "x"}, "Z/m": null}},
          {"at": "2s", "device": "A", "op": "device.crash"},
          {"at": "3s", "device": "A", "op": "device.restart"}
        ]
        """#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let steps = file.runs[0].steps
        let names = steps.map(\.op.name)
        #expect(Set(names).count == 31)
        #expect(Set(names) == Set(StepResolver.ops.map(\.name)))
        for step in steps {
            switch step.op {
            case .networkSet(let link):
                #expect(link.latency == .normal(mean: .milliseconds(10), stddev: .milliseconds(2)))
                #expect(link.pushLatency == .pareto(scale: .milliseconds(5), shape: 2))
                #expect(link.bandwidthBitsPerSecond == 1_000_000)
                #expect(link.reorder == true && link.requestTimeout == .seconds(10) && link.pushLoss == 0 && link.loss == 0.2)
            case .cloudClockSet(let offset): #expect(offset == .minutes(5)); #expect(step.devices.isEmpty)
            case .clockSet(let offset): #expect(offset == .seconds(-30))
            case .clockJump(let by): #expect(by == .seconds(3600))
            case .accountSignIn(let account): #expect(account == 1)
            case .cloudThrottle(let length, let retryAfter, let zone): #expect(length == .minutes(1) && retryAfter == .seconds(20) && zone == nil)
            case .kvsSet(let entries, _) where entries.count == 1:
                #expect(entries[0].value == .dictionary([
                    PlistEntry(key: "a", value: .data([0, 1])),
                    PlistEntry(key: "b", value: .array([.integer(1), .double(2.5), .bool(true)])),
                    PlistEntry(key: "c", value: .date(epochMicroseconds: 1_769_860_800_000_000)),
                ]))
            case .kvsSet(let entries, _): #expect(entries.map(\.key) == ["a", "z"])
            case .kvsIncrement(let key, let by): #expect(key == "n" && by == 1)
            case .docSave(_, let content): #expect(content == .synthetic(sizeBytes: 3 * 1_048_576))
            case .zoneDelete(let database, let zone, let byUser): #expect(database == .private && zone == "Z" && byUser)
            case .recordSave(let change):
                #expect(change.database == .public && change.zone == "_defaultZone")
                #expect(change.fields.map(\.name) == ["s", "i", "d", "b", "t", "loc", "r", "a", "l", "gone"])
                #expect(change.fields[1].value == .int(3))
                #expect(change.fields[5].value == .location(latitude: 1.5, longitude: -2))
                #expect(change.fields[6].value == .reference(recordName: "m", action: .deleteSelf))
                #expect(change.fields[7].value == .asset(sizeBytes: 1_048_576))
                #expect(change.fields[8].value == .list([.int(1), .int(2)]))
                #expect(change.fields[9].value == nil)
            case .recordsSaveAtomic(_, let zone, let saves, let deletes): #expect(zone == "Z" && saves.map(\.name) == ["a"] && deletes == ["b"])
            case .assert(let spec):
                #expect(spec.kvs.map(\.key) == ["k", "gone"])
                #expect(spec.kvs[1].value == nil)
                #expect(spec.documents.map(\.content) == [.text("x"), nil, .synthetic(sizeBytes: 10)])
                #expect(spec.records.map(\.name) == ["Z/n", "Z/m"])
                #expect(spec.records[1].fields == nil)
            default: break
            }
        }
    }

    @Test func topLevelSettingsResolve() throws {
        let text = Load.scenario(#"""
        seed: 42, duration: "2h", environment: "production",
        end: {heal: false, settle: "10m", maxEvents: 1000},
        limits: {records: {batch: 10, requestBytes: "64KB", recordBytes: "1KB", assetBytes: "2MB"}, kvs: {keyBytes: 32, valueBytes: "10KB"}},
        engine: {records: {conflict: "clientWins", savePolicy: "allKeys"}, kvs: {timestampSource: "server"}},
        expect: {anomalies: [{kind: "lostUpdate", store: "kvs", item: "k", device: "A"}], noAnomalies: ["divergence", {kind: "resurrection", store: "records"}],
                 notifications: [{device: "B", reason: "serverChange", min: 1, max: 3}], settled: true,
                 final: {kvs: {k: 2, gone: null}, documents: {"a.txt": "x"}, records: {"Z/n": {t: "x"}}}},
        """#, devices: #"[{id: "A", clock: {offset: "+1s", driftPpm: 50}}, {id: "B"}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        let run = file.runs[0]
        #expect(run.seed == 42 && run.duration == .seconds(7200) && run.environment == .production)
        #expect(!run.end.heal && run.end.settle == .minutes(10) && run.end.maxEvents == 1000)
        #expect(run.limits.records == RecordLimits(batch: 10, requestBytes: 65_536, recordBytes: 1024, assetBytes: 2_097_152))
        #expect(run.limits.kvs.keyBytes == 32 && run.limits.kvs.valueBytes == 10_240 && run.limits.kvs.keys == 1024)
        #expect(run.engine.records.conflict == .clientWins && run.engine.records.savePolicy == .allKeys && run.engine.kvs.timestampSource == .server)
        #expect(run.devices[0].clockOffset == .seconds(1) && run.devices[0].driftPpm == 50)
        #expect(run.expect.anomalies == [AnomalyPattern(kind: .lostUpdate, store: "kvs", item: "k", device: "A")])
        #expect(run.expect.noAnomalies == [AnomalyPattern(kind: .divergence), AnomalyPattern(kind: .resurrection, store: "records")])
        #expect(run.expect.notifications == [NotificationExpectation(device: "B", reason: "serverChange", min: 1, max: 3)])
        #expect(run.expect.settled == true)
        let final = try #require(run.expect.final)
        #expect(final.kvs.map(\.key) == ["k", "gone"] && final.kvs[0].value == .integer(2) && final.kvs[1].value == nil)
        #expect(final.documents.map(\.content) == [.text("x")])
        #expect(final.records[0].fields == [FieldAssignment(name: "t", value: .string("x"))])
    }

    @Test func bareIntegersMeanMillisecondsAndBytes() throws {
        let text = Load.scenario(#""duration": 60000, "limits": {"storage": 2048}, "steps": [{"at": 1500, "device": "A", "op": "airplane.on"}]"#)
        let file = try #require(Load.file(text), "\(Load.describe(Load.errors(text)))")
        #expect(file.runs[0].duration == .seconds(60))
        #expect(file.runs[0].limits.storageBytes == 2048)
        #expect(file.runs[0].steps[0].at == SimInstant(microseconds: 1_500_000))
    }

    @Test func accountsAreDeclaredAndDevicesDefaultToTheFirst() throws {
        let text = Load.scenario(#""accounts": ["alice", "bob"]"#, devices: #"[{"id": "A"}, {"id": "B", "account": "bob"}]"#)
        let file = try #require(Load.file(text))
        #expect(file.runs[0].accounts == ["alice", "bob"])
        #expect(file.runs[0].devices.map(\.account) == [0, 1])
    }
}
