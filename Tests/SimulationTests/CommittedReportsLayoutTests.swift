import Foundation
import Testing
import SyncLabReports
import SyncLabScenario

/// `.ci/run` checks that the committed reports regenerate byte for byte, which cannot see a
/// report nobody regenerates: `synclab run` leaves in place the folder of a variant the
/// scenario no longer has (and a scenario's reports after the scenario is gone). This holds
/// `Reports/` to exactly what `Scenarios/` writes, folder by folder.
@Suite("Committed reports: one folder per scenario, one per variant")
struct CommittedReportsLayoutTests {
    static func folders(in path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(path)/\(name)", isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    @Test("every folder in Reports/ is a scenario's, and holds a folder for each of its variants and nothing else")
    func reportsMatchScenarios() throws {
        let root = ReferenceDoc.root.path
        let scenarioFiles = ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/Scenarios")) ?? [])
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".json5") }.sorted()
        #expect(!scenarioFiles.isEmpty)
        var expected: [String: [String]] = [:]
        for name in scenarioFiles {
            let stem = name.hasSuffix(".json5") ? String(name.dropLast(6)) : String(name.dropLast(5))
            guard case .success(let file) = ScenarioLoader.load(path: "\(root)/Scenarios/\(name)") else {
                Issue.record("Scenarios/\(name) does not load"); continue
            }
            let variants = file.runs.map(\.variant)
            expected[stem] = variants.count <= 1 ? [] : VariantPaths.folders(for: variants).sorted()
        }
        let reportFolders = Self.folders(in: "\(root)/Reports")
        #expect(reportFolders == expected.keys.sorted(), "Reports/ folders without a scenario, or scenarios without reports")
        for (stem, variantFolders) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(Self.folders(in: "\(root)/Reports/\(stem)") == variantFolders, "Reports/\(stem)/: stale or missing variant folders")
        }
    }
}
