import Foundation
import Testing
@testable import SyncLabReports

/// A variant may be called anything, `timeline.html` and `report.md` included; its folder then
/// took the name of the comparison's own file beside it, and `synclab run` ran every variant and
/// exited 2 ("OUT/timeline.html is a folder, not a file") without the comparison.
@Suite("Variants named like the comparison's files", .serialized)
struct ComparisonFileNamesTests {
    @Test("get other folders (a single run's file names too), in any case, and both the comparison and every variant's reports are written")
    func reportNamesAreTaken() throws {
        let variants = ["base", "timeline.html", "report.md", "Report.MD", "result.json", "trace.jsonl"]
        let folders = VariantPaths.folders(for: variants)
        #expect(folders == ["base", "timeline.html-2", "report.md-3", "Report.MD-2", "result.json-2", "trace.jsonl-2"])
        let root = CLIOutputTests.temporary("comparison-file-names")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let runs = try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }
        try ReportSet.write(runs, file: "hostile.json", to: root, variants: variants)
        var isDirectory: ObjCBool = false
        for name in ["timeline.html", "report.md"] {
            #expect(FileManager.default.fileExists(atPath: "\(root)/\(name)", isDirectory: &isDirectory) && !isDirectory.boolValue, "\(name)")
        }
        for folder in folders {
            #expect(FileManager.default.fileExists(atPath: "\(root)/\(folder)/result.json"), "\(folder)")
        }
        let markdown = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(markdown.contains("](timeline.html-2/report.md)") && markdown.contains("](report.md-3/report.md)"))
    }
}
