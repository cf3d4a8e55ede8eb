import Simulation

/// `--junit FILE`: one test case per scenario variant; failures carry the failed expectations and
/// the anomaly sentences (SPEC §8).
public enum JUnitReport {
    public struct Entry: Sendable {
        public var file: String
        public var judged: ScenarioRunner.Judged
        public init(file: String, judged: ScenarioRunner.Judged) { self.file = file; self.judged = judged }
    }

    public static func render(_ entries: [Entry]) -> String {
        let failures = entries.filter { !$0.judged.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"synclab\" tests=\"\(entries.count)\" failures=\"\(failures)\">\n"
        var byFile: [(String, [Entry])] = []
        for entry in entries {
            if byFile.last?.0 == entry.file { byFile[byFile.count - 1].1.append(entry) } else { byFile.append((entry.file, [entry])) }
        }
        for (file, group) in byFile {
            let suiteFailures = group.filter { !$0.judged.passed }.count
            let name = group.first?.judged.outcome.run.scenarioName ?? file
            xml += "  <testsuite name=\"\(Markup.escape(name))\" file=\"\(Markup.escape(file))\" tests=\"\(group.count)\" failures=\"\(suiteFailures)\">\n"
            for entry in group {
                let run = entry.judged.outcome.run
                xml += "    <testcase classname=\"\(Markup.escape(name))\" name=\"\(Markup.escape(run.variant))\" file=\"\(Markup.escape(file))\">\n"
                if !entry.judged.passed {
                    let failed = entry.judged.expectations.filter { !$0.passed }
                    let message = failed.map { "\($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }.joined(separator: "; ")
                    var body = failed.map { "expectation \($0.name): wanted \($0.wanted.rendered()), got \($0.actual.rendered())" }
                    body += entry.judged.outcome.report.anomalies.map { "\($0.kind): \($0.explanation)" }
                    body.append("replay: swift run synclab run \(file) --seed \(run.seed) --variant \(run.variant)")
                    xml += "      <failure message=\"\(Markup.escape(message))\" type=\"expectation\">\(Markup.escape(body.joined(separator: "\n")))</failure>\n"
                }
                let anomalies = entry.judged.outcome.report.anomalies.map { "\($0.kind): \($0.explanation)" }.joined(separator: "\n")
                if !anomalies.isEmpty { xml += "      <system-out>\(Markup.escape(anomalies))</system-out>\n" }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}
