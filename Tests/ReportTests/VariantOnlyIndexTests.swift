import Foundation
import Testing
@testable import SyncLabReports

/// `synclab run FILE --variant NAME` on a scenario with variants rewrites the comparison in
/// `OUT/`. It used to compare only the variant just run and show it under the heading "The base
/// run in full", as if it were the base run, while the other variants' folders stayed beside it.
@Suite("The comparison after --variant", .serialized)
struct VariantOnlyIndexTests {
    private let fileManager = FileManager.default

    @Test("after a full run, --variant keeps every variant in the comparison and shows base in full")
    func earlierRunsStayCompared() throws {
        let root = CLIOutputTests.temporary("variant-only")
        defer { try? fileManager.removeItem(atPath: root) }
        let variants = ["base", "merge", "other"]
        try ReportSet.write(try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "hostile.json", to: root, variants: variants)
        // Only `merge` runs now, with another seed so its row is told from its earlier one.
        try ReportSet.write([try CLIOutputTests.judged(seed: 4, variant: "merge")], file: "hostile.json", to: root, variants: variants)
        let index = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(index.contains("— 3 variants"), "\(index.prefix(400))")
        #expect(index.contains("| [base](base/report.md) (earlier run) |"))
        #expect(index.contains("| [other](other/report.md) (earlier run) |"))
        #expect(index.contains("| [merge](merge/report.md) |"))
        #expect(index.contains("## The base run in full\n\n**PASSED** · seed 3 ") || index.contains("## The base run in full\n\n**FAILED** · seed 3 "))
        let page = try String(contentsOfFile: root + "/timeline.html", encoding: .utf8)
        #expect(page.contains("(earlier run)"))
        #expect(page.contains("3 variants"))
    }

    @Test("--variant in an empty folder names the run it shows in full, not base")
    func aLoneVariantIsNotCalledBase() throws {
        let root = CLIOutputTests.temporary("variant-alone")
        defer { try? fileManager.removeItem(atPath: root) }
        try ReportSet.write([try CLIOutputTests.judged(seed: 4, variant: "merge")], file: "hostile.json", to: root, variants: ["base", "merge"])
        let index = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(index.contains("— 1 variant\n"), "\(index.prefix(200))")
        #expect(!index.contains("base run"))
        #expect(index.contains("## The merge run in full"))
        #expect(index.contains("`merge/timeline.html`"))
        let page = try String(contentsOfFile: root + "/timeline.html", encoding: .utf8)
        #expect(page.contains("<h2>The merge run in full</h2>"))
        #expect(!page.contains("href=\"base/timeline.html\""))
        #expect(!page.contains("(earlier run)"))
    }

    @Test("another file's reports in a variant's folder are not compared")
    func anotherFilesRunIsLeftOut() throws {
        let root = CLIOutputTests.temporary("variant-other-file")
        defer { try? fileManager.removeItem(atPath: root) }
        try ReportSet.write(try ["base", "merge"].map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "other.json", to: root, variants: ["base", "merge"])
        try ReportSet.write([try CLIOutputTests.judged(seed: 4, variant: "merge")], file: "hostile.json", to: root, variants: ["base", "merge"])
        let index = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(!index.contains("(earlier run)"))
        #expect(index.contains("## The merge run in full"))
    }
}
