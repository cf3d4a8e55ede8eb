import Testing
@testable import SyncLabSimulation
import SyncLabRunner

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

    static func documentTraffic(_ judged: ScenarioRunner.Judged, device: String) throws -> (downloadBytes: [Int64], uploadsSent: Int) {
        let events = try Harness.events(judged).filter { $0.string("device") == device && $0.string("store") == "documents" }
        let downloads = events.filter { $0.event == "respond" && $0.string("result") == "changes" }.compactMap { $0.int("bytes") }
        let uploads = events.filter { $0.event == "send" && $0.string("kind") == "upload" }.count
        return (downloads, uploads)
    }

    @Test("the issue's scenario: after the restart the device neither downloads its own 50 MB back nor uploads it twice")
    func noSelfDownloadAfterACutUpload() throws {
        let judged = try Harness.run(Self.scenario(crash: "20s", restart: "60s"))
        let failed = Self.failedExpectations(judged)
        #expect(failed.isEmpty, "failed: \(failed)")
        let traffic = try Self.documentTraffic(judged, device: "A")
        #expect(traffic.downloadBytes.allSatisfy { $0 == 0 }, "A downloaded \(traffic.downloadBytes)")
        #expect(traffic.uploadsSent == 2, "the cut upload and its one retry")
    }

    // Latency 1 s: A's upload leaves at ~2 s (after the launch fetch) and reaches the cloud at
    // ~44.9 s; the cloud's answer would reach A at ~45.9 s, but A crashes at 45.5 s.
    @Test("a device whose upload reached the cloud but whose answer a crash lost does not download that version back, nor upload it again")
    func noSelfDownloadWhenTheAnswerWasLost() throws {
        let judged = try Harness.run(Self.scenario(crash: "45.5s", restart: "50s", latency: "1s"))
        let failed = Self.failedExpectations(judged)
        #expect(failed.isEmpty, "failed: \(failed)")
        let received = try Harness.events(judged).filter {
            $0.event == "cloudReceive" && $0.string("device") == "A" && $0.string("kind") == "upload"
        }
        #expect(received.first.map { $0.time < 45_500_000 } == true, "the upload reached the cloud before the crash: \(received.map(\.time))")
        let traffic = try Self.documentTraffic(judged, device: "A")
        #expect(traffic.downloadBytes.allSatisfy { $0 == 0 }, "A downloaded \(traffic.downloadBytes)")
        #expect(traffic.uploadsSent == 1, "A uploaded its version \(traffic.uploadsSent) times")
        // B still gets it, once.
        #expect(try Self.documentTraffic(judged, device: "B").downloadBytes.filter { $0 > 0 } == [52_428_800])
    }

    @Test("going offline frees the link too: back online, the device's requests do not queue behind the upload it lost")
    func reconnectedDeviceIsNotHeldBackByTheDeadUpload() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "offline mid upload",
         "devices": [{"id": "A", "network": {"bandwidth": "10Mbps"}}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "doc.save", "path": "film.mov", "content": {"$size": "50MB"}},
           {"at": "20s", "device": "A", "op": "airplane.on"},
           {"at": "25s", "device": "A", "op": "airplane.off"}
         ],
         "expect": {"converged": true, "lostUpdates": 0}}
        """)
        let failed = Self.failedExpectations(judged)
        #expect(failed.isEmpty, "failed: \(failed)")
        // t=25s: the KVS store's reconnect fetch arrives a latency later, not after the dead
        // upload's ~43 s. (The documents engine itself waits for its upload's timeout, SPEC §3.2.)
        let fetches = try Harness.events(judged).filter {
            $0.event == "send" && $0.string("device") == "A" && $0.string("store") == "kvs" && $0.string("kind") == "fetch" && $0.time >= 25_000_000
        }
        let first = try #require(fetches.first)
        #expect(try #require(first.int("arrive_us")) < 26_000_000)
    }
}
