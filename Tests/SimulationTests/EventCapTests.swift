import Testing
import SyncLabScenario
import SyncLabResult
import SyncLabReports
@testable import SyncLabSimulation

/// `end.maxEvents` (SPEC §5): the cap is the number of events handled, and a run it cuts off is a
/// runaway, reported as one failed expectation and not judged as if it had ended.
@Suite("The event cap")
struct EventCapTests {
    // Two devices set one key a second apart (last-writer-wins loses A's), then A sets another:
    // cut at 40 events the run is mid-sync; uncut it ends converged with the one lost update.
    static let text = """
    {"format": "synclab/1", "name": "capped", "end": {"maxEvents": 40},
     "devices": [{"id": "A"}, {"id": "B"}],
     "steps": [{"at": "0s", "device": "A", "op": "kvs.set", "key": "k", "value": 1},
               {"at": "1s", "device": "B", "op": "kvs.set", "key": "k", "value": 2},
               {"at": "30s", "device": "A", "op": "kvs.set", "key": "j", "value": 3}],
     "expect": {"converged": true, "lostUpdates": 1}}
    """

    @Test func aCapOfNEventsHandlesAndReportsExactlyN() throws {
        let judged = try Harness.run(Self.text)
        #expect(judged.outcome.capHit)
        #expect(judged.outcome.statistics.events == 40)
    }

    @Test func aCutOffRunIsNotJudgedAndFailsOnlyOnTheCap() throws {
        let judged = try Harness.run(Self.text)
        #expect(!judged.passed)
        #expect(judged.outcome.report.anomalies.isEmpty)
        #expect(judged.expectations.map(\.name) == ["end.maxEvents"])
        #expect(judged.expectations.first?.actual.rendered().contains("after 40 events") == true)
    }

    /// SPEC §6: `converged` says the devices agree after settling; a run the cap cut off never
    /// settled, so its `metrics.converged` is false (it was true, from the empty report).
    @Test func aCutOffRunHasNotConverged() throws {
        let judged = try Harness.run(Self.text)
        #expect(!judged.outcome.report.converged)
        #expect(!judged.outcome.settled)
    }

    @Test func aRunUnderTheCapIsJudgedAsUsual() throws {
        let judged = try Harness.run(Self.text.replacingOccurrences(of: "\"maxEvents\": 40", with: "\"maxEvents\": 100000"))
        #expect(!judged.outcome.capHit)
        #expect(judged.passed)
        #expect(judged.expectations.map(\.name) == ["converged", "lostUpdates"])
    }

    /// The summary and the reports of a cut-off run say it was not judged: "no anomalies" (as
    /// they said) reads as if the checker had looked and found nothing.
    @Test func aCutOffRunsReportsSayItWasNotJudged() throws {
        let judged = try Harness.run(Self.text)
        let summary = TextSummary.render(judged, file: "capped.json")
        #expect(summary.contains("not judged: the event cap (end.maxEvents) cut the run off"), "\(summary)")
        #expect(!summary.contains("\n      no anomalies"))
        let result = ResultDocument.json(judged, file: "capped.json").renderedPretty()
        let model = try ReportModel(trace: judged.outcome.trace, result: Array(result.utf8))
        #expect(model.cutOffByEventCap)
        let markdown = MarkdownReport.render(model), page = TimelinePage.render(model)
        for text in [markdown, page] {
            #expect(text.contains("and was cut off: the checker did not judge it"))
            #expect(!text.contains("The checker found no anomalies."))
        }
        // An uncut run that finds nothing still says so.
        let uncut = try Harness.run(Self.text.replacingOccurrences(of: "\"maxEvents\": 40", with: "\"maxEvents\": 100000").replacingOccurrences(of: "\"key\": \"k\", \"value\": 2", with: "\"key\": \"m\", \"value\": 2"))
        let uncutModel = try ReportModel(trace: uncut.outcome.trace, result: Array(ResultDocument.json(uncut, file: "t.json").renderedPretty().utf8))
        #expect(!uncutModel.cutOffByEventCap)
        #expect(MarkdownReport.render(uncutModel).contains("The checker found no anomalies."))
    }
}
