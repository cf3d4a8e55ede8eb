import Foundation
import Testing
@testable import SyncLabReports

/// SPEC §8: "With variants, a comparison table (variant × metrics) in report.md and
/// timeline.html". The table held five of RESULT's nine metrics: writes, notifications,
/// messages and retries (what a policy costs) were not compared.
@Suite("The variant comparison shows every metric", .serialized)
struct ComparisonMetricsTests {
    @Test("report.md and timeline.html compare writes, lost updates, conflicts, unresolved, quota violations, converged, notifications, messages and retries")
    func everyMetricIsAColumn() throws {
        let root = CLIOutputTests.temporary("comparison-metrics")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let variants = ["base", "merge"]
        let runs = try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }
        try ReportSet.write(runs, file: "hostile.json", to: root, variants: variants)
        let metrics = runs[0].outcome
        let index = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(index.contains("| variant | writes | lost updates | conflicts | unresolved | quota violations | converged | notifications | messages | retries | passed |\n|---|---:|---:|---:|---:|---:|:-:|---:|---:|---:|:-:|\n"), "\(index.prefix(600))")
        let report = metrics.report
        let row = "| [base](base/report.md) | \(report.writes) | \(report.lostUpdates) | \(report.conflicts) | \(report.unresolvedConflicts) | \(report.quotaViolations) | \(report.converged ? "yes" : "no") | \(report.notifications) | \(metrics.statistics.messages) | \(metrics.statistics.retries) |"
        #expect(index.contains(row), "\(row)\n\(index.prefix(800))")
        let page = try String(contentsOfFile: root + "/timeline.html", encoding: .utf8)
        #expect(page.contains("<th>variant</th><th>writes</th><th>lost updates</th><th>conflicts</th><th>unresolved</th><th>quota violations</th><th>converged</th><th>notifications</th><th>messages</th><th>retries</th><th>passed</th>"))
        #expect(page.contains("<td class=\"num\">\(metrics.statistics.messages)</td><td class=\"num\">\(metrics.statistics.retries)</td>"))
    }
}
