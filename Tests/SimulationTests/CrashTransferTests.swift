import Testing
@testable import SyncLabSimulation

/// Issue 14: a crashed device transmits nothing. A crash cuts its transfers in progress as going
/// offline does (SPEC §3.2, §3.3), and after the restart it does not download back what it uploaded.
@Suite("Crashes and transfers in progress")
struct CrashTransferTests {
    /// A uploads 50 MB at 10 Mbps from t=1s (about 42 s on the wire). `crash` and `restart` are
    /// the step times; B only watches.
    static func scenario(crash: String, restart: String, latency: String = "50ms") -> String {
        """
        {"format": "synclab/1", "name": "crash mid upload",
         "devices": [{"id": "A", "network": {"bandwidth": "10Mbps", "latency": "\(latency)"}}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "doc.save", "path": "film.mov", "content": {"$size": "50MB"}},
           {"at": "\(crash)", "device": "A", "op": "device.crash"},
           {"at": "\(restart)", "device": "A", "op": "device.restart"}
         ],
         "expect": {"converged": true, "lostUpdates": 0, "final": {"documents": {"film.mov": {"$size": "50MB"}}}}}
        """
    }

    static func failedExpectations(_ judged: ScenarioRunner.Judged) -> [String] {
        judged.expectations.filter { !$0.passed }.map(\.name)
    }

    @Test("a device that crashes mid-upload delivers nothing of it: the cloud receives the upload only after the restart")
    func crashCutsTheUpload() throws {
        // t=20s crash (the upload would have arrived at ~43 s), t=60s restart.
        let judged = try Harness.run(Self.scenario(crash: "20s", restart: "60s"))
        let failed = Self.failedExpectations(judged)
        #expect(failed.isEmpty, "failed: \(failed)")
        let events = try Harness.events(judged)
        let uploadsReceived = events.filter {
            $0.event == "cloudReceive" && $0.string("device") == "A" && $0.string("store") == "documents" && $0.string("kind") == "upload"
        }
        #expect(uploadsReceived.count == 1)
        #expect(uploadsReceived.allSatisfy { $0.time > 60_000_000 }, "received at \(uploadsReceived.map(\.time)) µs")
        let dropped = events.filter { $0.event == "dropped" && $0.string("device") == "A" }
        #expect(dropped.map { $0.string("why") } == ["device crashed while the request was in flight"])
    }

    @Test("after a crash the link is free: the restarted device's requests do not queue behind the upload it lost")
    func restartedDeviceIsNotHeldBackByTheDeadUpload() throws {
        // t=20s crash, t=25s restart: the relaunch fetch must not wait for ~43 s.
        let judged = try Harness.run(Self.scenario(crash: "20s", restart: "25s"))
        let failed = Self.failedExpectations(judged)
        #expect(failed.isEmpty, "failed: \(failed)")
        let fetches = try Harness.events(judged).filter {
            $0.event == "send" && $0.string("device") == "A" && $0.string("store") == "documents" && $0.string("kind") == "fetch" && $0.time >= 25_000_000
        }
        let first = try #require(fetches.first)
        #expect(try #require(first.int("arrive_us")) < 26_000_000)
    }
}
