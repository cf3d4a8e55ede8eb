import Testing
@testable import SyncLabSimulation
import SyncLabRunner

/// Documents travel at the link's bandwidth, but only to devices that do not have them yet.
@Suite("Document transfers")
struct DocumentTransferTests {
    // A's 1 MB upload takes about 8.4 s at 1 Mbps; B downloads it; at t=60s every device
    // fetches once more (the heal's foreground).
    static func scenario(reinstall: Bool) -> String {
        """
        {"format": "synclab/1", "name": "own upload",
         "devices": [{"id": "A", "network": {"bandwidth": "1Mbps"}}, {"id": "B"}],
         "steps": [
           {"at": "1s", "device": "A", "op": "doc.save", "path": "movie.mov", "content": {"$size": "1MB"}}
           \(reinstall ? """
           , {"at": "40s", "device": "A", "op": "app.delete"}, {"at": "41s", "device": "A", "op": "app.install"}
           """ : "")
         ],
         "expect": {"converged": true, "lostUpdates": 0, "final": {"documents": {"movie.mov": {"$size": "1MB"}}}}}
        """
    }

    static func documentDownloads(_ judged: ScenarioRunner.Judged, to device: String) throws -> [Int64] {
        try Harness.events(judged).filter {
            $0.event == "respond" && $0.string("device") == device && $0.string("store") == "documents" && $0.string("result") == "changes"
        }.compactMap { $0.int("bytes") }
    }

    @Test("a device is not sent the content of its own upload again, other devices are")
    func ownUploadIsNotDownloadedAgain() throws {
        let judged = try Harness.run(Self.scenario(reinstall: false))
        let passed = judged.passed
        #expect(passed, "\(judged.expectations.filter { !$0.passed })")
        #expect(try Self.documentDownloads(judged, to: "A").allSatisfy { $0 == 0 })
        #expect(try Self.documentDownloads(judged, to: "B").contains(1_048_576))
        // The heal's fetches move no content: the run ends a round trip after t=60s, not a
        // 1 MB download (8.4 s at 1 Mbps) later.
        let end = judged.outcome.endTime.microseconds
        #expect(end < 61_000_000, "ended at \(end) µs")
    }

    @Test("a reinstalled app with an empty container downloads every document again")
    func reinstalledAppGetsEverything() throws {
        let judged = try Harness.run(Self.scenario(reinstall: true))
        let passed = judged.passed
        #expect(passed, "\(judged.expectations.filter { !$0.passed })")
        #expect(try Self.documentDownloads(judged, to: "A").contains(1_048_576))
    }
}
