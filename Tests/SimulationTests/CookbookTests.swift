import Foundation
import Testing

/// docs/COOKBOOK.md promises a scenario in `Scenarios/` and committed reports in `Reports/` for
/// every recipe; CI runs the scenarios and regenerates the reports, and this keeps the promise.
@Suite("The cookbook's recipes exist")
struct CookbookTests {
    let text = (try? String(contentsOf: ReferenceDoc.root.appendingPathComponent("docs/COOKBOOK.md"), encoding: .utf8)) ?? ""

    /// The recipe table's rows: `| N | recipe | scenarios | reports |`.
    var rows: [[String]] {
        text.split(separator: "\n").compactMap { line -> [String]? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, Int(cells[1]) != nil else { return nil }
            return Array(cells[1...4])
        }
    }

    static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func everyRecipeOfTheIssueIsInTheTableInOrder() {
        #expect(rows.map { Int($0[0]) ?? 0 } == Array(1...12))
    }

    @Test func everyRecipeNamesAScenarioThatExistsAndItsReports() {
        for row in rows {
            let scenarios = Self.backticked(row[2])
            #expect(!scenarios.isEmpty, "recipe \(row[0]) names no scenario")
            for path in scenarios {
                #expect(FileManager.default.fileExists(atPath: ReferenceDoc.root.appendingPathComponent(path).path), "recipe \(row[0]): \(path) is missing")
            }
            for folder in Self.backticked(row[3]) {
                let report = ReferenceDoc.root.appendingPathComponent(folder).appendingPathComponent("report.md")
                #expect(FileManager.default.fileExists(atPath: report.path), "recipe \(row[0]): \(folder)report.md is missing")
            }
        }
    }

    @Test func everyRecipeHasASectionWithAPublicSource() {
        for number in 1...12 {
            let start = text.range(of: "\n## \(number). ")
            #expect(start != nil, "no section for recipe \(number)")
            guard let start else { continue }
            let section = text[start.upperBound...].prefix { $0 != "#" }
            #expect(section.contains("Source"), "recipe \(number) names no source")
            #expect(section.contains("**What SyncLab shows.**") && section.contains("**What prevents it.**"), "recipe \(number) lacks a part")
        }
    }
}
