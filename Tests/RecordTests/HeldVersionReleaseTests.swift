import Foundation
import Testing
import SyncLab

/// Versions a device holds back (fetched while a save was in doubt, a save's answer held for the
/// next fetch) are shown later, when nothing is in doubt: never a version the cloud no longer
/// has, nor one older than what the device's own answered save made (spec27, records seeds 26140
/// and 31382 of `synclab fuzz`).
@Suite struct HeldVersionReleaseTests {
    /// The committed scenario `Scenarios/NAME.json`.
    private static func scenario(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/\(name).json")
        return try Scenario(text: String(contentsOf: url, encoding: .utf8))
    }

    @Test("zoneNotFound drops the version a save's answer held for the next fetch: the device does not show a record of the deleted zone")
    func zoneNotFoundDropsHeldAnswer() throws {
        let result = try Self.scenario("fuzz-records-zone-not-found-drops-held-answer").run()
        // Before: C showed Z/r0 (n = 3) after the heal while the cloud had no r0 (a divergence).
        #expect(result.metrics.converged, "\(result.summary)")
        #expect(!result.anomalies.contains { $0.kind == "divergence" }, "\(result.summary)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }

    @Test("a held version no newer than the device's own answered save is not shown over it")
    func olderHeldVersionIsNotShown() throws {
        let result = try Self.scenario("fuzz-records-held-version-older-than-own-save").run()
        // Before: A showed Z/r0.n = 2 (the atomic call's) over its own answered n = 0 for good.
        #expect(result.metrics.converged, "\(result.summary)")
        guard case .object(let account)? = result.final["main"], case .object(let records)? = account["records"],
              case .object(let r0)? = records["Z/r0"] else { Issue.record("no Z/r0 in \(result.final)"); return }
        #expect(r0["n"] == .integer(0))
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }

    @Test("a version fetched while the device's delete was out, whose fetch overtook the delete's answer, is fetched again and shown")
    func reorderedFetchAfterOwnDelete() throws {
        let result = try Self.scenario("fuzz-records-reordered-fetch-overtakes-delete-answer").run()
        // Before: D dropped the fetched r0 (made again after its delete) and never showed it.
        #expect(result.metrics.converged, "\(result.summary)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
        #expect(result.trace.contains(#""event":"refetchAfterDelete""#))
    }

    @Test("a record field gone with its record is explained by the delete that removed the record, on a device that never showed the field")
    func fieldGoneWithItsRecordNamesTheDelete() throws {
        let result = try Self.scenario("fuzz-records-zone-not-found-drops-held-answer").run()
        let lost = try #require(result.anomalies.first { $0.kind == "lostUpdate" && $0.field == "n" }, "\(result.summary)")
        // Before: "the item is gone and nothing that removed it had seen this write" (C learnt of
        // the zone's deletion by zoneNotFound, which names no write; A never had the field).
        #expect(lost.replacedBy == "A:1", "\(lost)")
        #expect(lost.explanation.contains("A:1 (zone.delete \"Z\" on A at 235.394s) deleted it with its zone without having seen it"), "\(lost.explanation)")
    }
}
