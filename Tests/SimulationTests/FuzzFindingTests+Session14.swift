import Testing
import SyncLabJSON
@testable import SyncLabSimulation

/// Findings of a `synclab fuzz --profile kvs` campaign over seeds 1..100000 (session 14, spec26):
/// seeds past the 1..3000 every change is checked on.
extension FuzzFindingTests {
    @Test("a key both in a call refused for a limit and in a call that lost to a newer write is listed in the serverChange (kvs seed 23206)")
    func refusedAndLostCallsOnOneKeyNotifyTheKey() throws {
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 23206, "limits": {"kvs": {"keys": 3}},
         "devices": [{"id": "A"}, {"id": "E"}, {"id": "F", "clock": {"offset": "-1m"}}],
         "steps": [{"at": "1s", "device": "E", "op": "kvs.setMany", "values": {"count": 1, "k2": "E"}},
                   {"at": "2s", "device": "A", "op": "kvs.set", "key": "k1", "value": 36},
                   {"at": "3s", "device": "F", "op": "kvs.set", "key": "k0", "value": "F first"},
                   {"at": "3s", "device": "F", "op": "kvs.setMany", "values": {"k0": "F second", "k1": "F"}}],
         "expect": {"converged": true, "quotaViolations": 1, "noAnomalies": ["missedNotification", "spuriousNotification"],
                    "final": {"kvs": {"k0": null, "k1": 36}}}}
        """)
        // F:1 (k0) refused for kvs.keys and F:2 (k0, k1) lost whole in one answer: k0 goes back
        // to absent because F:2's value went, which the app hears as serverChange.
        let notes = try Harness.events(try #require(judged.first)).filter { $0.event == "notify" && $0.string("device") == "F" }
        let lastServerChange = try #require(notes.last { $0.string("reason") == "serverChange" })
        guard case .array(let items)? = lastServerChange.fields["items"] else { Issue.record("no items"); return }
        #expect(items.map { node -> String? in if case .string(let key) = node.value { return key }; return nil } == ["k0"])
        #expect(notes.contains { $0.string("reason") == "quotaViolationChange" })
    }

    @Test("a device's later call that lost to its own earlier call of the same upload is taken back (kvs seed 55080)")
    func laterCallLosingToItsOwnEarlierCallIsTakenBack() throws {
        // B's clock jumps back between two writes of k0, both sent in one upload: the cloud keeps
        // the earlier (newer timestamp); B used to go on showing the later one (a divergence).
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 55080, "devices": [{"id": "B"}],
         "steps": [{"at": "0ms", "device": "B", "op": "kvs.set", "key": "k0", "value": "B2"},
                   {"at": "0ms", "device": "B", "op": "clock.jump", "by": "-1ms"},
                   {"at": "0ms", "device": "B", "op": "kvs.setMany", "values": {"k0": "B3"}}],
         "end": {"heal": false},
         "expect": {"converged": true, "lostUpdates": 1, "noAnomalies": ["divergence", "missedNotification"],
                    "final": {"kvs": {"k0": "B2"}}}}
        """)
        let view = try #require(judged.first).outcome.history.finalDeviceViews.first ?? nil
        #expect(view?.map(\.write?.sequence) == [1])
    }

    @Test("a refused call's keys are told as the whole upload left them, not as at the refusal (kvs seed 55080, second finding)")
    func refusedCallKeysAreToldAsTheUploadLeftThem() throws {
        // B:3 (setMany k0, k1) loses whole (k0 older than B:2 after the clock jump), then B:4
        // sets k1 and wins the tie. Told k1 as it stood at B:3's refusal (B:1), B took B:1 back
        // over B:4 and diverged from the cloud.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 55080, "devices": [{"id": "B"}],
         "steps": [{"at": "0ms", "device": "B", "op": "kvs.set", "key": "k1", "value": "B7"},
                   {"at": "1ms", "device": "B", "op": "kvs.set", "key": "k0", "value": "B2"},
                   {"at": "1ms", "device": "B", "op": "clock.jump", "by": "-1ms"},
                   {"at": "1ms", "device": "B", "op": "kvs.setMany", "values": {"k0": "B3", "k1": "B"}},
                   {"at": "1ms", "device": "B", "op": "kvs.set", "key": "k1", "value": "B11"}],
         "end": {"heal": false},
         "expect": {"converged": true, "noAnomalies": ["divergence", "atomicityViolation"], "final": {"kvs": {"k0": "B2", "k1": "B11"}}}}
        """)
        let view = try #require(judged.first).outcome.history.finalDeviceViews.first ?? nil
        #expect(view?.map(\.write?.sequence) == [2, 4])
    }
    @Test("a record whose own re-sent save's answer held a version for the next fetch waits, when that fetch comes, with the rest of the atomic call held for a save in doubt (records seed 11399)")
    func answerHeldVersionWaitsWithTheRestOfItsCall() throws {
        // F's re-sent save of r0 is answered with A:5's version (held for the next fetch); F's
        // edit of r2 is then in doubt. The next fetch brings r0 and r2 as A:5 left them: r2 waits
        // for its answer, and r0 used to show at once, A:5 on r0 beside r2.n from before it.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 11399, "network": {"latency": {"dist": "uniform", "min": "25ms", "max": "170ms"}, "loss": 0.2},
         "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "C"}, {"id": "F"}],
         "steps": [{"at": "0ms", "device": "*", "op": "zone.create", "zone": "Z"},
                   {"at": "277ms", "device": "F", "op": "airplane.on"},
                   {"at": "43484ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A6"}},
                   {"at": "43484ms", "device": "F", "op": "airplane.off"},
                   {"at": "112513ms", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"title": "A4", "n": 1}}]},
                   {"at": "113060ms", "op": "cloud.throttle", "for": "69944ms", "retryAfter": "28109ms"},
                   {"at": "113060ms", "device": "F", "op": "app.delete"},
                   {"at": "162018ms", "device": "F", "op": "app.install"},
                   {"at": "162417ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "A7"}},
                   {"at": "162417ms", "device": "F", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "F1"}},
                   {"at": "247442ms", "device": "A", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"title": "A3", "body": "A3", "n": 6}}, {"type": "Note", "name": "r0", "fields": {"title": "A3", "body": "A3", "n": 5}}]},
                   {"at": "265268ms", "device": "F", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"title": "F2"}}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"]}}
        """)
        // r0 shows A:5 on F no earlier than r2 does.
        let visible = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("device") == "F" && $0.string("write") == "A:5" }
        let r0 = try #require(visible.first { $0.string("item") == "Z/r0" })
        let r2 = try #require(visible.first { $0.string("item") == "Z/r2" })
        #expect(r0.time >= r2.time)
    }
    @Test("a fetch that leaves alone a record answered during it leaves alone, transitively, the records sharing a write with those it leaves alone (records seed 13102)")
    func staleFetchLeavesAloneTransitively() throws {
        // A's save of r2 is answered while its fetch is on the way: r2 is left alone, and r0 with
        // it (D:1). r1 shares only D:2 with r0, and used to show: D:2 on r1 beside r0's old body.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 13102, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "A"}, {"id": "D"}],
         "steps": [{"at": "0ms", "device": "D", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"title": "D2", "body": "D2", "n": 0}}, {"type": "Note", "name": "r0", "fields": {"title": "D2", "body": "D2", "n": 7}}]},
                   {"at": "1100ms", "device": "D", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"title": "D1", "body": "D1"}}, {"type": "Note", "name": "r1", "fields": {"title": "D1", "n": 0}}]},
                   {"at": "1100ms", "device": "A", "op": "airplane.on"},
                   {"at": "1101ms", "device": "A", "op": "record.save", "zone": "Z", "type": "Note", "name": "r2", "fields": {"title": "A3"}}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation"]}}
        """)
        let visible = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("device") == "A" && $0.string("write") == "D:2" }
        let r0 = try #require(visible.first { $0.string("item") == "Z/r0" })
        let r1 = try #require(visible.first { $0.string("item") == "Z/r1" })
        #expect(r0.time == r1.time)
    }
    @Test("a refused save that followed the device's own pending delete puts the delete back, not the last server record (records seed 22349)")
    func refusedSaveAfterDeleteRestoresTheDelete() throws {
        // B:5 saves r1 after B:4 deleted it (one save with the delete, removing r1's title). The
        // request with B:5 and B:6 is over the batch limit and refused whole: r1 used to go back
        // to the server's title B1 (from B:2) while r0 kept B:3's title, B:3 shown in part.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 22349, "limits": {"records": {"batch": 2}}, "engine": {"records": {"conflict": "merge"}},
         "devices": [{"id": "B"}],
         "steps": [{"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r0", "fields": {"body": "B"}},
                   {"at": "0ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "B1"}},
                   {"at": "331ms", "device": "B", "op": "airplane.on"},
                   {"at": "331ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r1", "fields": {"title": "B6"}}, {"type": "Note", "name": "r0", "fields": {"title": "B6"}}]},
                   {"at": "331ms", "device": "B", "op": "record.delete", "zone": "Z", "name": "r1"},
                   {"at": "331ms", "device": "B", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"body": "B11"}},
                   {"at": "331ms", "device": "B", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r2", "fields": {"title": "B9", "n": 9}}, {"type": "Note", "name": "r0", "fields": {"title": "B9"}}]}],
         "expect": {"converged": true, "quotaViolations": 2, "noAnomalies": ["atomicityViolation", "lostUpdate", "divergence"],
                    "final": {"records": {"Z/r0": {"title": "B6", "body": "B"}, "Z/r1": null, "Z/r2": null}}}}
        """)
        // The rollback shows r1 gone by the delete B:4, and never B:2's title again.
        let rollback = try Harness.events(try #require(judged.first)).filter { $0.event == "visible" && $0.string("cause") == "rollback" && $0.string("item") == "Z/r1" }
        #expect(!rollback.isEmpty)
        #expect(rollback.allSatisfy { $0.string("write") == "B:4" })
    }
    @Test("a delete that went in the request of an atomic call's saves goes again with them after a throttled answer (records seed 24280)")
    func deleteSentWithItsCallGoesAgainWithIt() throws {
        // C:1 (r0, r1) and C:2 (delete r1) go out in one atomic request, answered
        // requestRateLimited. The retry sent r0's save alone, then the delete: G fetched r0 with
        // C:1 between the two, beside r1's title from before C:1.
        let judged = try run("""
        {"format": "synclab/1", "name": "t", "seed": 24280, "engine": {"records": {"conflict": "merge"}}, "devices": [{"id": "C"}, {"id": "G"}],
         "steps": [{"at": "0ms", "device": "G", "op": "record.save", "zone": "Z", "type": "Note", "name": "r1", "fields": {"title": "G4"}},
                   {"at": "721ms", "op": "cloud.throttle", "for": "77ms", "retryAfter": "1ms"},
                   {"at": "721ms", "device": "C", "op": "airplane.on"},
                   {"at": "721ms", "device": "C", "op": "records.saveAtomic", "zone": "Z", "records": [{"type": "Note", "name": "r0", "fields": {"body": "C3"}}, {"type": "Note", "name": "r1", "fields": {"title": "C3", "body": "C3"}}]},
                   {"at": "721ms", "device": "C", "op": "record.delete", "zone": "Z", "name": "r1"},
                   {"at": "722ms", "device": "C", "op": "airplane.off"},
                   {"at": "855ms", "op": "cloud.throttle", "for": "1ms", "retryAfter": "1ms"}],
         "expect": {"converged": true, "noAnomalies": ["atomicityViolation", "divergence"], "final": {"records": {"Z/r0": {"body": "C3"}, "Z/r1": null}}}}
        """)
        // Every request C sends with r0's save carries r1's delete.
        let batches = try Harness.events(try #require(judged.first)).filter { $0.event == "log" && $0.string("device") == "C" && $0.string("event") == "sendingBatch" }
        #expect(!batches.isEmpty)
        let deletes = batches.map { line -> String? in
            guard case .object(let members)? = line.fields["details"], case .string(let count)? = members.first(where: { $0.key == "deletes" })?.value.value else { return nil }
            return count
        }
        #expect(deletes.allSatisfy { $0 == "1" })
    }
}
