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
}
