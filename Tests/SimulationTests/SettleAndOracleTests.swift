import Testing
import SyncLabScenario
import SyncLabResult
@testable import SyncLabSimulation
import SyncLabRunner

/// Cases first written by users from SPEC.md alone (QA), where the run ended too early or the
/// checker judged wrongly. Each would fail without its fix.
@Suite("Settling and the checker on cases users wrote")
struct SettleAndOracleTests {
    private func run(_ text: String) throws -> ScenarioRunner.Judged {
        let judged = try Harness.run(text)
        let failed = judged.expectations.filter { !$0.passed }.map { "\($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }
        #expect(failed.isEmpty, "\(failed) \(judged.outcome.report.anomalies.map(\.explanation))")
        return judged
    }

    @Test("the heal clears push loss, so a change uploaded after it still reaches every device")
    func healClearsPushLoss() throws {
        _ = try run("""
        {"format": "synclab/1", "name": "t", "network": {"pushLoss": 1}, "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "10s", "device": "A", "op": "kvs.set", "key": "x", "value": 1}],
         "expect": {"converged": true, "final": {"kvs": {"x": 1}}}}
        """)
    }

    @Test("a document blocked on the quota uploads when a record's deletion frees the space")
    func documentRetriesWhenARecordFreesSpace() throws {
        _ = try run("""
        {"format": "synclab/1", "name": "t", "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Media"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Media", "type": "Photo", "name": "p1", "fields": {"image": {"$asset": "700KB"}}},
           {"at": "20s", "device": "B", "op": "doc.save", "path": "big.bin", "content": {"$size": "400KB"}},
           {"at": "60s", "device": "A", "op": "record.delete", "zone": "Media", "name": "p1"}],
         "expect": {"converged": true, "quotaViolations": 1, "lostUpdates": 0,
                    "final": {"documents": {"big.bin": {"$size": "400KB"}}, "records": {"Media/p1": null}}}}
        """)
    }

    @Test("a record blocked on the quota is sent when another device's delete frees the space")
    func recordRetriesWhenADeleteFreesSpace() throws {
        _ = try run("""
        {"format": "synclab/1", "name": "t", "limits": {"storage": "1MB"}, "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Old"},
           {"at": "0s", "device": "B", "op": "zone.create", "zone": "New"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Old", "type": "Photo", "name": "big", "fields": {"img": {"$asset": "800KB"}}},
           {"at": "20s", "device": "B", "op": "record.save", "zone": "New", "type": "Photo", "name": "p", "fields": {"img": {"$asset": "300KB"}}},
           {"at": "60s", "device": "A", "op": "record.delete", "zone": "Old", "name": "big"}],
         "expect": {"converged": true, "quotaViolations": 1, "lostUpdates": 0,
                    "final": {"records": {"Old/big": null, "New/p": {"img": {"$asset": "300KB"}}}}}}
        """)
    }

    @Test("deleting one member of an atomic save later is no atomicity violation on a device that joins late")
    func laterDeleteOfAnAtomicMember() throws {
        _ = try run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "C", "online": false}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Z"},
           {"at": "1s", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [
             {"type": "T", "name": "x", "fields": {"v": 1}}, {"type": "T", "name": "y", "fields": {"v": 1}}]},
           {"at": "10s", "device": "A", "op": "record.delete", "zone": "Z", "name": "y"},
           {"at": "30s", "device": "C", "op": "airplane.off"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"], "final": {"records": {"Z/x": {"v": 1}, "Z/y": null}}}}
        """)
    }

    @Test("a public record's creator learns of its other device's edit, and another account's refused delete is no resurrection")
    func publicDatabase() throws {
        _ = try run("""
        {"format": "synclab/1", "name": "t", "accounts": ["ann", "bob"],
         "devices": [{"id": "A", "account": "ann"}, {"id": "B", "account": "bob"}, {"id": "A2", "account": "ann"}],
         "steps": [
           {"at": "0s", "device": ["B", "A2"], "op": "subscription.create", "database": "public"},
           {"at": "1s", "device": "A", "op": "record.save", "database": "public", "type": "Post", "name": "hello", "fields": {"body": "hi all"}},
           {"at": "40s", "device": "B", "op": "record.delete", "database": "public", "name": "hello"},
           {"at": "50s", "device": "A2", "op": "record.save", "database": "public", "type": "Post", "name": "hello", "fields": {"body": "edited"}},
           {"at": "120s", "device": "B", "op": "assert", "records": {"_defaultZone/hello": {"body": "edited"}}}],
         "expect": {"converged": true, "lostUpdates": 0, "noAnomalies": ["resurrection"]}}
        """)
    }

    @Test("a lost write is blamed on what replaced it on its own device, not on a later unrelated final value")
    func lostWriteBlamedOnWhatReplacedIt() throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "engine": {"records": {"conflict": "serverWins"}}, "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "zone.create", "zone": "Z"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "n", "fields": {"title": "one"}},
           {"at": "10s", "device": ["A", "B"], "op": "airplane.on"},
           {"at": "20s", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "n", "fields": {"title": "from A"}},
           {"at": "25s", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "n", "fields": {"title": "from B"}},
           {"at": "60s", "device": "A", "op": "airplane.off"},
           {"at": "70s", "device": "B", "op": "airplane.off"},
           {"at": "100s", "device": "B", "op": "record.delete", "zone": "Z", "name": "n"}],
         "expect": {"converged": true, "lostUpdates": 1}}
        """)
        let lost = try #require(judged.outcome.report.anomalies.first { $0.kind == .lostUpdate })
        #expect(lost.write == "B:1")
        #expect(lost.replacedBy == "A:3", "\(lost.explanation)")
    }

    @Test("writes stranded on a device signed out at the end were neither replaced unseen nor written back over")
    func writesStrandedOnAnUnjudgedDeviceAreExplainedSo() throws {
        // A sets k; B shows it, goes offline, removes k and sets it again, and signs out: neither
        // of B's writes reaches the cloud and B's view is not judged, so both are lost, and the
        // cloud keeps A:1. B:2 was built on B:1 (B showed the removal when it set k). The
        // explanations used to say "B:2 … replaced it without having seen it" (with no A:1) and,
        // with A:1, "the older value of A:1, which B:1 had replaced, was written back over it by a
        // save that had not seen it" — nothing was written back: B's writes never left B.
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": "from A"},
                   {"at": "20s", "device": "B", "op": "airplane.on"},
                   {"at": "21s", "device": "B", "op": "kvs.remove", "key": "k"},
                   {"at": "22s", "device": "B", "op": "kvs.set", "key": "k", "value": true},
                   {"at": "23s", "device": "B", "op": "account.signOut"}]}
        """)
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }
        #expect(lost.map(\.write) == ["B:1", "B:2"])
        #expect(lost.map(\.replacedBy) == ["B:2", nil])
        for anomaly in lost { #expect(!anomaly.explanation.contains("written back") && !anomaly.explanation.contains("without having seen it"), "\(anomaly.explanation)") }
        #expect(lost.first?.explanation.hasSuffix("was lost: B:2 (kvs.set \"k\" on B at 22s), built on it, replaced it, but at the end stood only on a device whose view is not judged (signed out, crashed or without its app); the final value is A:1 (kvs.set \"k\" on A at 1s).") == true, "\(lost.first?.explanation ?? "")")
        #expect(lost.last?.explanation.hasSuffix("was lost: nothing replaced it, but at the end it stood only on a device whose view is not judged (signed out, crashed or without its app); the final value is A:1 (kvs.set \"k\" on A at 1s).") == true, "\(lost.last?.explanation ?? "")")
    }

    @Test("a KVS removal that never reached the cloud is a lost update, and the key it removed on its device is no resurrection")
    func aRemovalThatNeverReachedTheCloudIsNoResurrection() throws {
        // A sets k; B shows it, goes offline and removes k. Signed out at the end (unjudged), or
        // still offline with no heal (judged, diverged): either way the removal never left B, so
        // the cloud's A:1 is not "back". Both used to report a resurrection, and the offline case
        // explained the loss as A:1 "written back over it by a save that had not seen it".
        for (last, heal) in [("{\"at\": \"22s\", \"device\": \"B\", \"op\": \"account.signOut\"}", true),
                             ("{\"at\": \"22s\", \"device\": \"B\", \"op\": \"kvs.synchronize\"}", false)] {
            let judged = try Harness.run("""
            {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "B"}], "end": {"heal": \(heal)},
             "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": "from A"},
                       {"at": "20s", "device": "B", "op": "airplane.on"},
                       {"at": "21s", "device": "B", "op": "kvs.remove", "key": "k"},
                       \(last)]}
            """)
            let anomalies = judged.outcome.report.anomalies
            #expect(!anomalies.contains { $0.kind == .resurrection }, "\(anomalies.map(\.explanation))")
            let lost = try #require(anomalies.first { $0.kind == .lostUpdate })
            #expect(lost.write == "B:1" && lost.replacedBy == nil)
            #expect(!lost.explanation.contains("written back"), "\(lost.explanation)")
            if !heal {
                #expect(lost.explanation.hasSuffix("was lost: it never reached the cloud: at the end B still showed it, not yet uploaded (B's view differs from the cloud's); the final value is A:1 (kvs.set \"k\" on A at 1s)."), "\(lost.explanation)")
            }
        }
    }

    @Test("a write held only by a device signed out or crashed at the end was not replaced by itself")
    func aWriteHeldOnlyByAnUnjudgedDeviceNamesNoReplacer() throws {
        // The run ends before either upload: A is crashed and D signed out, so neither view is
        // judged. The explanation used to say "A:1 … replaced it without having seen it".
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "devices": [{"id": "A"}, {"id": "D"}],
         "steps": [{"at": "0s", "device": "*", "op": "kvs.set", "key": "${device}", "value": 1},
                   {"at": "1s", "device": "A", "op": "device.crash"},
                   {"at": "1s", "device": "D", "op": "account.signOut"}],
         "end": {"heal": false, "settle": "0s"}}
        """)
        let lost = judged.outcome.report.anomalies.filter { $0.kind == .lostUpdate }
        #expect(lost.map(\.write) == ["A:1", "D:1"])
        for anomaly in lost {
            #expect(anomaly.replacedBy == nil, "\(anomaly.explanation)")
            #expect(anomaly.explanation.hasSuffix("was lost: nothing replaced it, but at the end it stood only on a device whose view is not judged (signed out, crashed or without its app)."), "\(anomaly.explanation)")
        }
    }
}
