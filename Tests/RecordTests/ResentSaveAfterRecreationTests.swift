import Foundation
import Testing
import SyncLab

/// The cloud recognises a save re-sent after its answer was lost even once its record was
/// deleted, made again and deleted again (spec27, records seed 23403 of `synclab fuzz`).
@Suite struct ResentSaveAfterRecreationTests {
    /// The committed scenario `Scenarios/NAME.json`.
    private static func scenario(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/\(name).json")
        return try Scenario(text: String(contentsOf: url, encoding: .utf8))
    }

    @Test("a creation re-sent after its record was deleted, made again elsewhere and deleted again does not make the record a third time")
    func resentCreationAfterDeleteAndRecreation() throws {
        let result = try Self.scenario("fuzz-records-resent-creation-after-delete-and-recreation").run()
        // Before: the cloud forgot D's applied creation when E made r0 again, so D's re-sent
        // creation made it once more after B's delete: r0 back with D's body (a resurrection).
        #expect(!result.anomalies.contains { $0.kind == "resurrection" }, "\(result.summary)")
        #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    }
}
