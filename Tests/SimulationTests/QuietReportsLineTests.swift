import Foundation
import Testing

/// `synclab run --quiet` printed a failure without its `reports:` line: CI logs (docs/CI.md runs
/// `--quiet`) said what failed and how to replay it, but not where its timeline was.
@Suite("synclab run --quiet keeps the reports line of a failure")
struct QuietReportsLineTests {
    @Test("a failing file's summary ends with its reports folder; a passing file prints nothing")
    func quietFailureNamesItsReports() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = directory.appendingPathComponent("coffee.json")
        // README's coffee counter: one increment lost, so its expectation fails.
        try ShrinkExpectationNoteTests.coffee.write(to: failing, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out").path
        let output = try Synclab.run(["run", failing.path, Synclab.packageRoot.appendingPathComponent("Scenarios/kvs-clock-skew.json").path,
                                      "--quiet", "--out", out])
        #expect(output.status == 1, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("FAIL  coffee counter") == true, "\(output.stdout)")
        #expect(lines.last == "      reports: \(out)/coffee/", "\(output.stdout)")
        #expect(!output.stdout.contains("kvs-clock-skew"), "a passing file prints nothing under --quiet: \(output.stdout)")
    }
}
